// SPDX-License-Identifier: Apache-2.0
/// `s` with control characters written as escapes (`\n`, `\t`, `\r`, else `\u00XX` in JSON
/// or `\xXX` in text). JSON also escapes `"` and `\` (RFC 8259 §7). Text output uses it so a
/// newline in a file name or a provider's title cannot split a result line, and a terminal never
/// receives a sequence it would act on: text also escapes the C1 controls (CSI among them), the
/// line and paragraph separators U+2028 and U+2029 and the bidirectional embeddings, overrides
/// and isolates U+202A…U+202E and U+2066…U+2069 (Unicode UAX #9), which reorder what follows
/// them on the line; past U+007F as `\uXXXX` (`\u0085`, `\u202e`), so that an escape never reads
/// like `\xXX`, a raw byte of a name that is not UTF-8.
public func escaped(_ s: String, json: Bool) -> String {
    func isTextControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
    let needsWork = s.unicodeScalars.contains {
        $0.value < 0x20 || $0.value == 0x7F || (json ? ($0 == "\"" || $0 == "\\") : isTextControl($0))
    }
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
            if scalar.value < 0x20 || (!json && (scalar.value == 0x7F || isTextControl(scalar))) {
                let hex = String(scalar.value, radix: 16)
                out += json ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    : scalar.value > 0x7F ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    : "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}
