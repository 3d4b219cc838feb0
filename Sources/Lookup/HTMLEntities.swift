// SPDX-License-Identifier: Apache-2.0
internal import CXML2

/// Decodes the HTML character references some providers leave in their text (`&amp;`, `&#39;`,
/// `&eacute;`, `&#x2014;`), with libxml2's HTML 4 entity table (htmlEntityLookup).
///
/// An `&` that starts no known reference is kept as written, so decoding twice changes nothing more.
/// Where libxml2 cannot be opened, named references other than the XML five are kept as written.
enum HTMLEntities {
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";"),
                  let scalar = scalar(String(after[..<semicolon])) else {
                out += "&"
                rest = after
                continue
            }
            out.unicodeScalars.append(scalar)
            rest = after[after.index(after: semicolon)...]
        }
        return out + rest
    }

    /// The character of a reference's name (`amp`, `#39`, `#x2014`), or `nil`.
    private static func scalar(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") { return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        // The XML five without libxml2 (htmlEntityLookup knows them too, but &apos; is not HTML 4).
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard let xml = try? LookupLibraries.xml().get(), let entity = xml.pointee.htmlEntityLookup(name) else { return nil }
        return Unicode.Scalar(entity.pointee.value)
    }
}
