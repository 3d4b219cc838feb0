// SPDX-License-Identifier: Apache-2.0
/// `s` with control characters written as escapes (`\n`, `\t`, `\r`, else `\u00XX` in JSON
/// or `\xXX` in text). JSON also escapes `"` and `\` (RFC 8259 §7). Text output uses it so a
/// newline in a file name cannot split a result line.
public func escaped(_ s: String, json: Bool) -> String {
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
