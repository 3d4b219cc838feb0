// SPDX-License-Identifier: Apache-2.0
/// CSV as RFC 4180 defines it: fields with a comma, quote, CR or LF are quoted, quotes
/// doubled; records end in CRLF.
public enum CSV {
    /// One record: the fields joined with `,`, then CRLF.
    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// A text field that a spreadsheet must not take for a formula: one that starts with `=`,
    /// `+`, `-`, `@`, a tab or a CR gets a leading `'` (OWASP, "CSV Injection"), so that a file
    /// named `=HYPERLINK(…)` opens as its name, not as a link.
    public static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// One field, quoted when it holds `,`, `"`, CR or LF.
    public static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return value }
        var quoted = "\""
        for character in value {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
