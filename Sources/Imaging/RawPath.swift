// SPDX-License-Identifier: Apache-2.0
/// A file-system path as the kernel sees it: a string of bytes without NUL, not necessarily
/// UTF-8 (Linux file names are bytes; a camera card written by another OS can hold Latin-1 names).
///
/// Opening goes through the exact bytes, so a name that is not valid UTF-8 still opens;
/// ``description`` is the text to show a person. Paths compare byte-wise, as `ls` sorts in the
/// C locale, so a sorted list of paths is the same on every machine.
public struct RawPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The UTF-8 bytes of `string`.
    public init(_ string: String) { bytes = Array(string.utf8) }

    /// `bytes` as they are (a command-line argument, a directory entry). A NUL byte is
    /// a programmer error: neither argv nor `readdir` can produce one.
    public init(bytes: [UInt8]) {
        precondition(!bytes.contains(0), "RawPath: NUL byte in a path")
        self.bytes = bytes
    }

    /// `-`: standard input.
    public var isStandardInput: Bool { bytes == [UInt8(ascii: "-")] }

    /// The path followed by `/` and `name` (one directory entry's bytes), no doubled slash.
    public func appending(_ name: [UInt8]) -> RawPath {
        var joined = bytes
        if joined.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
        joined += name
        return RawPath(bytes: joined)
    }

    /// The last component's bytes (after the final `/`).
    public var lastComponent: ArraySlice<UInt8> {
        let trimmed = bytes.last == UInt8(ascii: "/") ? bytes.dropLast() : bytes[...]
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return trimmed[(slash + 1)...]
    }

    /// The path as text: valid UTF-8 as it is; every byte that is not part of valid UTF-8
    /// written as `\xNN` (two hex digits, upper case), e.g. `caf\xE9.jpg` for Latin-1 "café.jpg".
    public var description: String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] {
                    let hex = String(byte, radix: 16, uppercase: true)
                    out += "\\x" + (hex.count == 1 ? "0" : "") + hex
                }
                offset += length
            case .emptyInput:
                break loop
            }
        }
        return out
    }

    /// Whether the bytes are valid UTF-8 (``description`` is then exact).
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { (buffer) throws(E) -> R in
            try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(E) -> R in try body(chars.baseAddress!) }
        }
    }

    public static func < (lhs: RawPath, rhs: RawPath) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
