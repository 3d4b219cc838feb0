// SPDX-License-Identifier: Apache-2.0
internal import CJSON

/// A parsed JSON value (RFC 8259), copied out of json-c's tree so that no C object outlives the parse.
public indirect enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    /// Members in document order.
    case object([(key: String, value: JSONNode)])

    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// Parses `bytes` as one JSON text (nothing but white space after it).
    ///
    /// - Throws: ``JSONNode/ParseError`` with json-c's description and the byte offset where it
    ///   stopped (json_tokener_parse_ex, json_tokener_error_desc).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONNode {
        guard !bytes.isEmpty else { throw ParseError(message: "empty answer") }
        let json = try LookupLibraries.json().get()
        guard let tokener = json.pointee.tokener_new() else { throw ParseError(message: "json-c could not allocate a tokener") }
        defer { json.pointee.tokener_free(tokener) }
        // RFC 8259 only: json-c otherwise accepts single quotes, trailing commas and more.
        json.pointee.tokener_set_flags(tokener, JSON_TOKENER_STRICT)
        let object: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                json.pointee.tokener_parse_ex(tokener, chars.baseAddress!, Int32(chars.count))
            }
        }
        defer { if let object { _ = json.pointee.object_put(object) } }
        let state = json.pointee.tokener_get_error(tokener)
        let end = Int(json.pointee.tokener_get_parse_end(tokener))
        if state == json_tokener_continue {
            throw ParseError(message: "JSON text ends early (\(bytes.count) bytes)")
        }
        guard state == json_tokener_success else {
            throw ParseError(message: "\(json.pointee.tokener_error_desc(state).map { String(cString: $0) } ?? "error \(state.rawValue)") at byte \(end)")
        }
        if bytes[end...].contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw ParseError(message: "text after the JSON value at byte \(end)")
        }
        return convert(object, json)
    }

    /// Why a text is not JSON: one line.
    public struct ParseError: Error, Sendable, Equatable { public var message: String }

    private static func convert(_ object: OpaquePointer?, _ json: UnsafePointer<isc_json_api>) -> JSONNode {
        guard let object else { return .null }
        switch json.pointee.object_get_type(object) {
        case json_type_boolean: return .bool(json.pointee.object_get_boolean(object) != 0)
        case json_type_int: return .number(Double(json.pointee.object_get_int64(object)))
        case json_type_double: return .number(json.pointee.object_get_double(object))
        case json_type_string:
            let length = Int(json.pointee.object_get_string_len(object))
            guard let chars = json.pointee.object_get_string(object) else { return .string("") }
            return .string(chars.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            })
        case json_type_array:
            let count = json.pointee.object_array_length(object)
            return .array((0..<count).map { convert(json.pointee.object_array_get_idx(object, $0), json) })
        case json_type_object:
            var members: [(key: String, value: JSONNode)] = []
            var iterator = json.pointee.object_iter_begin(object)
            var end = json.pointee.object_iter_end(object)
            while json.pointee.object_iter_equal(&iterator, &end) == 0 {
                members.append((json.pointee.object_iter_peek_name(&iterator).map { String(cString: $0) } ?? "",
                                convert(json.pointee.object_iter_peek_value(&iterator), json)))
                json.pointee.object_iter_next(&iterator)
            }
            return .object(members)
        default: return .null
        }
    }

    /// The member `key` of an object, or `nil` (also for a non-object).
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A string's text, or `nil`; an empty or blank string counts as missing.
    public var string: String? {
        guard case .string(let text) = self, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }

    /// A whole number (a string of digits too, as some payloads write page counts), or `nil`.
    public var integer: Int? {
        switch self {
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: return Int(value)
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    /// An array's elements, or `[]`.
    public var elements: [JSONNode] {
        guard case .array(let items) = self else { return [] }
        return items
    }

    /// An object's members, or `[]`.
    public var members: [(key: String, value: JSONNode)] {
        guard case .object(let members) = self else { return [] }
        return members
    }
}
