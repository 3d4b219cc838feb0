// SPDX-License-Identifier: Apache-2.0
/// A JSON value whose objects keep their keys in the order given, written by hand.
///
/// Foundation's `JSONEncoder` on this toolchain reorders keys and drops `nil` fields, which
/// would break the documented schema (`"error": null` is part of it), so records build a
/// `JSONValue` and ``encoded`` writes it: strings escaped per RFC 8259 §7, `", "` between
/// members and elements, `": "` after keys, no line breaks.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    /// Members in output order; keys are not checked for duplicates.
    case object([Member])

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from `["key": value, …]` in the order written.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// This object with `key` added at the end when `value` is not `nil` (keys that appear only
    /// where they apply, so that readers of the usual objects see them unchanged); any other
    /// value unchanged.
    public func adding(_ key: String, _ value: JSONValue?) -> JSONValue {
        guard case .object(let members) = self, let value else { return self }
        return .object(members + [Member(key, value)])
    }

    /// `.string(s)`, or `.null` when `s` is `nil`.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    /// `.int(n)`, or `.null` when `n` is `nil`.
    public static func optional(_ n: Int?) -> JSONValue { n.map(JSONValue.int) ?? .null }

    /// The JSON text, on one line.
    public var encoded: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .string(let s): out += "\"" + escaped(s, json: true) + "\""
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                out += "\"" + escaped(member.key, json: true) + "\": "
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// The value of `key` when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A record that has a JSON form (one line of JSON Lines output).
public protocol JSONRecord {
    var json: JSONValue { get }
}
