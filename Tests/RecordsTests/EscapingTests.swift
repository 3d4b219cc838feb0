// SPDX-License-Identifier: Apache-2.0
import Records
import Testing

/// What text and JSON output make of the characters a terminal acts on.
@Suite struct EscapingTests {
    @Test(arguments: [("a\nb\tc\r", #"a\nb\tc\r"#), ("\u{1B}]0;x\u{07}", #"\x1b]0;x\x07"#), ("\u{7F}", #"\x7f"#),
                      ("\u{85}\u{9B}2J", #"\u0085\u009b2J"#), ("a\u{2028}b\u{2029}", #"a\u2028b\u2029"#),
                      ("\u{202A}\u{202E}\u{2066}\u{2069}", #"\u202a\u202e\u2066\u2069"#),
                      ("café — 本 \u{200F}", "café — 本 \u{200F}"), (#"back\slash "quoted""#, #"back\slash "quoted""#)])
    func text(input: String, expected: String) {
        #expect(escaped(input, json: false) == expected)
    }

    /// JSON escapes what RFC 8259 requires and keeps every other character as it is.
    @Test func jsonKeepsWhatItMay() {
        #expect(escaped("\u{1B}\n\"\\\u{85}\u{2028}\u{202E}", json: true) == "\\u001b\\n\\\"\\\\\u{85}\u{2028}\u{202E}")
    }
}
