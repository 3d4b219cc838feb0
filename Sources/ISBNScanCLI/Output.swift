// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Where text goes: standard output (results) or standard error (diagnostics).
public protocol TextSink: AnyObject {
    func write(_ text: String)
    /// Whether a write has failed (later writes are dropped): a long run stops early,
    /// since nothing more can reach the reader.
    var writeFailed: Bool { get }
}

extension TextSink {
    public var writeFailed: Bool { false }
}

/// Writes straight to a file descriptor with `write(2)`, so every line is out as soon as it
/// is written (no stdio buffering; `camera` relies on it to stream).
public final class FileDescriptorSink: TextSink {
    let fd: Int32
    /// The `errno` of the first failed write (ENOSPC on a full disk, EBADF when closed, EPIPE
    /// when the reader of a pipe has gone: `main` ignores SIGPIPE so that it sees this), or 0.
    /// Later writes are dropped; `main` reports it and exits 3 (``ExitStatus/outputError``), so
    /// lost results never pass for success.
    public private(set) var failure: Int32 = 0
    public var writeFailed: Bool { failure != 0 }
    public init(fd: Int32) { self.fd = fd }
    public func write(_ text: String) {
        guard failure == 0 else { return }
        failure = writeAll(text, to: fd)
    }
}

/// Writes all of `text`'s UTF-8 bytes to `fd` with `write(2)`, retrying after EINTR and
/// partial writes. Returns 0, or the `errno` of the write that failed.
func writeAll(_ text: String, to fd: Int32) -> Int32 {
    var text = text
    return text.withUTF8 { writeAll($0, to: fd) }
}

/// ``writeAll(_:to:)`` for bytes.
func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += n
    }
    return 0
}

/// Collects text in memory (for tests).
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
}
