// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import Records

/// `scan --files-from FILE`: the paths listed in a file or on standard input, one per line or,
/// with `-0`, separated by NUL bytes (as `find -print0` and `locate -0` write them).
enum FileList {
    /// Why a list could not be used.
    enum Failure: Error, Equatable {
        /// The list could not be opened or read (exit 1): `Error: <list>: <cause>`.
        case unreadable(String)
        /// A newline-separated list holds a NUL byte, so it was surely written with `-print0`
        /// (exit 2, a usage error): the message says to add `-0`.
        case nulInLine(String)
    }

    /// The paths in `list` (`-`: standard input), in order. Empty entries (blank lines, a final
    /// separator) are skipped; nothing else is trimmed, so names with spaces or a trailing `\r`
    /// stay as they are. Each path is then taken like a command-line argument: a folder is
    /// walked, `-` is standard input.
    ///
    /// Reads with `open(2)`/`read(2)`, so a FIFO (`<(find ...)`) works too.
    static func read(_ list: String, nulSeparated: Bool) -> Result<[RawPath], Failure> {
        let shown = list == "-" ? "standard input" : escaped(list, json: false)
        let bytes: [UInt8]
        switch readAll(list, stopAtNUL: !nulSeparated) {
        case .success(let read): bytes = read
        case .failure(let error) where error.code == E2BIG:
            return .failure(.unreadable("Error: \(shown): the file list is longer than \(maxBytes >> 20) MiB; give it in parts"))
        case .failure(let error):
            return .failure(.unreadable("Error: \(shown): cannot read the file list: \(String(cString: strerror(error.code)))"))
        }
        return split(bytes, nulSeparated: nulSeparated, shown: shown)
    }

    /// Splits a list's bytes into paths (see ``read(_:nulSeparated:)``).
    static func split(_ bytes: [UInt8], nulSeparated: Bool, shown: String) -> Result<[RawPath], Failure> {
        let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
        var paths: [RawPath] = []
        var line = 0
        for entry in bytes.split(separator: separator, omittingEmptySubsequences: false) {
            line += 1
            if entry.isEmpty { continue }
            if !nulSeparated && entry.contains(0) {
                return .failure(.nulInLine("\(shown) line \(line) holds a NUL byte: for a NUL-separated list (find -print0) add -0"))
            }
            if entry.count > maxPathBytes {
                return .failure(.unreadable("Error: \(shown) \(nulSeparated ? "entry" : "line") \(line) is \(entry.count) bytes long, "
                                            + "longer than any path (\(maxPathBytes)): not a list of paths?"))
            }
            paths.append(RawPath(bytes: Array(entry)))
        }
        return .success(paths)
    }

    /// The longest list read, in bytes: some 400,000 paths of 80 bytes (a longer list can be
    /// given in parts, or as folders); a list that never ends (`/dev/zero`, a runaway pipe) is
    /// refused rather than read into memory until the process is killed.
    static let maxBytes = 32 << 20
    /// The longest path in a list: Linux's PATH_MAX.
    static let maxPathBytes = 4096

    /// An `errno` value as an error.
    private struct Errno: Error { let code: Int32 }

    /// All bytes of `path` (`-`: file descriptor 0), or the `errno` of the failure.
    /// With `stopAtNUL`, reading ends at the chunk with a NUL byte (a newline list holding one
    /// is refused anyway, and `/dev/zero` never ends).
    private static func readAll(_ path: String, stopAtNUL: Bool) -> Result<[UInt8], Errno> {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Errno(code: errno)) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { return .failure(Errno(code: EISDIR)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(code: errno))
            }
            if n == 0 { break }
            guard bytes.count + n <= maxBytes else { return .failure(Errno(code: E2BIG)) }
            bytes += chunk[0..<n]
            if stopAtNUL && chunk[0..<n].contains(0) { break }
        }
        return .success(bytes)
    }
}
