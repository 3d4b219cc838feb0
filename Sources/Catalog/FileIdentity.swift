// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// What tells one file from another in the catalogue: where it is (its canonical absolute
/// path) and what it is (device, inode, size, modification time and a hash of its first and
/// last blocks).
///
/// The path is the key: `s/a.jpg`, `./s/a.jpg`, `$PWD/s//a.jpg` and a symbolic link to it are
/// one row. The rest decides whether the row still describes the file: a file replaced by
/// another of the same size and modification time (a copy from another phone, `cp -p`) has
/// another inode or other bytes, and is scanned again.
public struct FileIdentity: Sendable, Equatable {
    /// The canonical absolute path (realpath(3): no `.`, `..`, repeated `/` or symbolic link).
    public var path: [UInt8]
    /// st_dev and st_ino of stat(2).
    public var device: Int64
    public var inode: Int64
    /// Bytes.
    public var size: Int64
    /// st_mtim, nanoseconds since 1970-01-01 UTC.
    public var modificationNanoseconds: Int64
    /// FNV-1a 64 of the first and the last ``hashedBlock`` bytes (all of a smaller file), as a
    /// signed 64-bit integer (SQLite's INTEGER); 0 when the file cannot be read (then the
    /// file is an error, which is never taken as unchanged).
    public var contentHash: Int64

    /// Bytes hashed at each end of a file: one page, so the hash costs two reads.
    public static let hashedBlock = 4096

    public init(path: [UInt8], device: Int64, inode: Int64, size: Int64, modificationNanoseconds: Int64, contentHash: Int64) {
        self.path = path
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationNanoseconds = modificationNanoseconds
        self.contentHash = contentHash
    }

    /// The identity of the regular file at `path` (bytes, relative to the current folder or
    /// absolute; symbolic links followed), or `nil` when there is no such file (missing, a
    /// broken link, a folder, a device): such a path is never recorded.
    /// Uses realpath(3), stat(2), open(2), pread(2).
    public init?(path: [UInt8]) {
        guard let resolved = (path + [0]).withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { realpath($0.baseAddress!, nil) }
        }) else { return nil }
        defer { free(resolved) }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.path = Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        device = Int64(bitPattern: UInt64(info.st_dev))
        inode = Int64(bitPattern: UInt64(info.st_ino))
        size = Int64(info.st_size)
        modificationNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        contentHash = Self.hash(resolved, size: Int(info.st_size))
    }

    /// FNV-1a 64 of the first and last ``hashedBlock`` bytes of the file, or 0 when unreadable.
    private static func hash(_ path: UnsafePointer<CChar>, size: Int) -> Int64 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var block = [UInt8](repeating: 0, count: hashedBlock)
        for offset in size > hashedBlock ? [0, size - hashedBlock] : [0] {
            let n = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(offset)) }
            guard n >= 0 else { return 0 }
            for byte in block[0..<n] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return Int64(bitPattern: hash)
    }
}
