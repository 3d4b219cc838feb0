// SPDX-License-Identifier: Apache-2.0
import Scanning

extension JSONValue {
    /// Parses the JSON text `text` (RFC 8259) as records write it: integers only (no fractions
    /// or exponents: no record has them), strings with every escape of §7 including surrogate
    /// pairs. Returns `nil` for anything else, or text after the value.
    public init?(parsing text: String) {
        var parser = JSONParser(bytes: Array(text.utf8))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        guard parser.offset == parser.bytes.count else { return nil }
        self = value
    }

    /// A polygon as the records write it: `[[x, y], …]`, in the order of `points`.
    public init(polygon points: [Point]) {
        self = .array(points.map { .array([.int($0.x), .int($0.y)]) })
    }

    /// The points of a polygon written as ``init(polygon:)`` writes it; items that are not two
    /// integers are left out, anything but an array is no point.
    public var polygon: [Point] {
        guard case .array(let items) = self else { return [] }
        return items.compactMap { item in
            guard case .array(let xy) = item, xy.count == 2, case .int(let x) = xy[0], case .int(let y) = xy[1] else { return nil }
            return Point(x: x, y: y)
        }
    }
}

/// A recursive-descent reader of one JSON value; depth is bounded so that a hostile text cannot
/// exhaust the stack.
private struct JSONParser {
    let bytes: [UInt8]
    var offset = 0
    var depth = 0
    static let maxDepth = 64

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard offset + w.count <= bytes.count, Array(bytes[offset..<offset + w.count]) == w else { return false }
        offset += w.count
        return true
    }

    mutating func value() -> JSONValue? {
        skipSpace()
        guard offset < bytes.count else { return nil }
        switch bytes[offset] {
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            offset += 1
            var items: [JSONValue] = []
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(items) }
            while true {
                guard let item = value() else { return nil }
                items.append(item)
                skipSpace()
                guard offset < bytes.count else { return nil }
                offset += 1
                if bytes[offset - 1] == UInt8(ascii: "]") { return .array(items) }
                guard bytes[offset - 1] == UInt8(ascii: ",") else { return nil }
            }
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { return nil }
            depth += 1
            defer { depth -= 1 }
            offset += 1
            var members: [JSONValue.Member] = []
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object(members) }
            while true {
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
                offset += 1
                guard let member = value() else { return nil }
                members.append(JSONValue.Member(key, member))
                skipSpace()
                guard offset < bytes.count else { return nil }
                offset += 1
                if bytes[offset - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[offset - 1] == UInt8(ascii: ",") else { return nil }
            }
        default:
            return integer().map(JSONValue.int)
        }
    }

    mutating func integer() -> Int? {
        let start = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) { offset += 1 }
        guard offset > start else { return nil }
        return Int(String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    mutating func hex4() -> UInt32? {
        guard offset + 4 <= bytes.count,
              let n = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16) else { return nil }
        offset += 4
        return n
    }

    /// A string from its opening quote.
    mutating func string() -> String? {
        offset += 1
        var out: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { return nil }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    out += Array(String(Character(unicode)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                out.append(byte)
            }
        }
        return nil
    }
}
