#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// Size and modification time of a file, from stat(2).
struct FileStat: Equatable {
    var size: Int64
    /// Nanoseconds since 1970-01-01 UTC.
    var modificationNanoseconds: Int64

    /// stat(2) of `path` (following links), or `nil` when it fails or `path` is no regular file.
    init?(path: RawPath) {
        var info = stat()
        let ok = path.withCString { stat($0, &info) } == 0
        guard ok, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int64(info.st_size)
        modificationNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
