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
    return text.withUTF8 { bytes -> Int32 in
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
}

/// Collects text in memory (for tests).
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
}

/// Minimal JSON writing: strings escaped per RFC 8259 §7, keys in the order given.
enum JSON {
    static func string(_ s: String) -> String { "\"" + escaped(s, json: true) + "\"" }

    static func optional(_ s: String?) -> String { s.map(string) ?? "null" }

    /// `{"k": v, …}` from already-encoded values.
    static func object(_ pairs: KeyValuePairs<String, String>) -> String {
        "{" + pairs.map { "\(string($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
}

/// `s` with control characters written as escapes (`\n`, `\t`, `\r`, else `\u00XX` in JSON
/// or `\xXX` in text). JSON also escapes `"` and `\` (RFC 8259 §7). Text output uses it so a
/// newline in a file name cannot split a result line.
func escaped(_ s: String, json: Bool) -> String {
    let needsWork = s.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (json && ($0 == "\"" || $0 == "\\")) }
    guard needsWork else { return s }
    var out = ""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"" where json: out += "\\\""
        case "\\" where json: out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || (scalar.value == 0x7F && !json) {
                let hex = String(scalar.value, radix: 16)
                out += json ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                            : "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}
