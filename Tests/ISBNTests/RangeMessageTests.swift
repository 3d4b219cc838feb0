// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import ISBN

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite struct RangeMessageTests {
    let ranges = RangeMessage.bundled

    @Test func bundledMessageIsTheShippedFile() throws {
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/ISBN/Resources/RangeMessage.xml"),
                                 encoding: .utf8)
        #expect(RangeMessage.bundledText == shipped.replacingOccurrences(of: "\r\n", with: "\n"))
        let shared = try String(contentsOf: repositoryRoot.appendingPathComponent("../shared/isbn-ranges/RangeMessage.xml"),
                                encoding: .utf8)
        #expect(shared == shipped)
        #expect(ranges.serialNumber == "3b388def-5e30-451d-b9b2-12ca3f141051")
        #expect(ranges.date == "Sat, 22 Aug 2026 17:51:37 BST")
        #expect(ranges.groups.count == 287)
        #expect(ranges.groupCount == 287)
        #expect(ranges.groups.keys.filter { $0.hasPrefix("979-") }.count == 5)
    }

    /// The table compiled in (what every run uses) is what the XML check makes of the shipped text.
    @Test func bundledTableIsTheParsedMessage() throws {
        let parsed = try RangeMessage(xml: RangeMessage.bundledText)
        #expect(parsed.table == RangeMessage.bundledTable)
        #expect(parsed.table.prefixes.count == 289 && parsed.table.prefixCount == 2 && parsed.table.lows.count == 1874)
        #expect(parsed.prefixRules.mapValues { $0.count } == ranges.prefixRules.mapValues { $0.count })
        #expect(parsed.prefixRules["978"]?.first == RangeMessage.Rule(low: 0, high: 5_999_999, length: 1))
        for prefix in ["978-0", "978-4", "979-10", "978-99937"] {
            #expect(parsed.groups[prefix]?.rules == ranges.groups[prefix]?.rules && parsed.groups[prefix]?.group == ranges.groups[prefix]?.group)
        }
    }

    /// The compact form (what `ranges update` keeps beside an installed message) reads back as
    /// the same table; cut short anywhere or with bytes after it, it is refused, never half read.
    @Test func compactFormRoundTripsAndRefusesDamage() throws {
        let bytes = ranges.compactForm
        #expect(bytes.starts(with: Array("ISBNRANGES1\n".utf8)))
        #expect(bytes.count < RangeMessage.bundledText.utf8.count / 4)
        let read = try RangeMessage(compactForm: bytes)
        #expect(read.table == RangeMessage.bundledTable)
        #expect(read.hyphenate("9784873119038").hyphenated == "978-4-87311-903-8")
        for cut in stride(from: 0, to: bytes.count, by: 211) {
            #expect(throws: RangeMessageError.self) { try RangeMessage(compactForm: Array(bytes.prefix(cut))) }
        }
        #expect(throws: RangeMessageError("not a compact range table: bytes after its end")) {
            try RangeMessage(compactForm: bytes + [0])
        }
        #expect(throws: RangeMessageError("not a compact range table: no header")) { try RangeMessage(compactForm: Array("garbage".utf8)) }
        // A rule count far past the data: refused before anything is read or reserved.
        var huge = bytes
        huge.replaceSubrange(20..<24, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: RangeMessageError("not a compact range table: counts past its end")) { try RangeMessage(compactForm: huge) }
        // Every single byte changed: read or refused, and what is read keeps its rules in order.
        for offset in stride(from: 12, to: bytes.count, by: 37) {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            if let message = try? RangeMessage(compactForm: damaged) {
                #expect(message.table.lengths.allSatisfy { $0 <= 7 })
                _ = message.hyphenate("9784873119038")
            }
        }
    }

    /// Control characters written into a compact table by hand still never reach the output.
    @Test func controlCharactersInACompactTableBecomeSpaces() throws {
        let hostile = try RangeMessage(xml: RangeMessage.bundledText.replacingOccurrences(of: "<Agency>Japan</Agency>",
                                                                                          with: "<Agency>Japan@@@</Agency>"))
        let bytes = hostile.compactForm
        let marker = Array("Japan@@@".utf8)
        let at = try #require((0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        var damaged = bytes
        damaged.replaceSubrange((at + 5)..<(at + 8), with: [0x1B, 0x07, 0x7F])
        let message = try RangeMessage(compactForm: damaged)
        #expect(message.hyphenate("9784873119038").group?.agency == "Japan   ")
    }

    /// A group given twice: the later one counts (as a dictionary filled in message order would).
    @Test func aRepeatedGroupTakesTheLaterRules() throws {
        let japan = "<Prefix>978-4</Prefix>\n      <Agency>Japan</Agency>"
        let text = RangeMessage.bundledText.replacingOccurrences(of: "</RegistrationGroups>", with: """
              <Group>
                <Prefix>978-4</Prefix>
                <Agency>Japan again</Agency>
                <Rules>
                  <Rule>
                    <Range>0000000-9999999</Range>
                    <Length>3</Length>
                  </Rule>
                </Rules>
              </Group>
            </RegistrationGroups>
            """)
        #expect(RangeMessage.bundledText.contains(japan))
        let message = try RangeMessage(xml: text)
        #expect(message.groupCount == 287)
        #expect(message.hyphenate("9784873119038") == .hyphenated("978-4-873-11903-8", group: .init(prefix: "978-4", agency: "Japan again")))
        #expect(message.groups["978-4"]?.rules == [RangeMessage.Rule(low: 0, high: 9_999_999, length: 3)])
    }

    /// Control characters in a message (an ESC/OSC sequence, BEL) never reach the output.
    @Test func controlCharactersInNamesBecomeSpaces() throws {
        let hostile = RangeMessage.bundledText.replacingOccurrences(of: "<Agency>Japan</Agency>",
                                                                   with: "<Agency>Ja\u{1B}]0;pwned\u{07}pan\u{9B}</Agency>")
        let message = try RangeMessage(xml: hostile)
        #expect(message.hyphenate("9784873119038").group?.agency == "Ja ]0;pwned pan")
    }

    @Test func knownISBNs() {
        #expect(ranges.hyphenate("9784873119038") == .hyphenated("978-4-87311-903-8",
                                                                  group: .init(prefix: "978-4", agency: "Japan")))
        #expect(ranges.hyphenate("9780306406157").hyphenated == "978-0-306-40615-7")
        #expect(ranges.hyphenate("9791032305690") == .hyphenated("979-10-323-0569-0",
                                                                  group: .init(prefix: "979-10", agency: "France")))
        #expect(ranges.hyphenate("9798886450125").group?.agency == "United States")
    }

    /// An ISBN-13 from its 12 first digits.
    func isbn(_ twelve: String) -> String {
        twelve + String(EAN.checkDigit(for: EAN.digitValues(twelve)!))
    }

    /// The lowest and highest ISBN of every registrant range of several groups (each end of each
    /// range, read from the XML), hyphenated as the rule says.
    @Test(arguments: ["978-0", "978-1", "978-4", "978-3", "978-99937", "978-612", "979-8", "979-10", "979-11", "979-12", "979-13"])
    func rangeBoundaries(groupPrefix: String) throws {
        let (group, rules) = try #require(ranges.groups[groupPrefix])
        let parts = groupPrefix.split(separator: "-")
        let available = 9 - parts[1].count  // digits after the group element, before the check digit
        var checked = 0
        for rule in rules {
            for (end, fill) in [(rule.low, "0"), (rule.high, "9")] {
                let seven = String(repeating: "0", count: 7 - String(end).count) + String(end)
                let after = available <= 7 ? String(seven.prefix(available))
                                           : seven + String(repeating: fill, count: available - 7)
                let number = isbn(String(parts[0] + parts[1]) + after)
                if rule.length == 0 {
                    guard case .notHyphenatable(let g, _) = ranges.hyphenate(number) else {
                        Issue.record("\(number) in a Length-0 range was hyphenated"); continue
                    }
                    #expect(g == group)
                } else {
                    let registrant = after.prefix(rule.length), publication = after.dropFirst(rule.length)
                    let expected = "\(groupPrefix)-\(registrant)-\(publication)-\(number.suffix(1))"
                    #expect(ranges.hyphenate(number) == .hyphenated(expected, group: group), "\(number)")
                }
                checked += 1
            }
        }
        #expect(checked == rules.count * 2)
    }

    @Test func lengthZeroRangesAreValidButNotHyphenated() {
        // 978 rule 6700000-6998999 has Length 0: no group is defined there.
        #expect(ranges.hyphenate(isbn("978670000000")) == .notHyphenatable(group: nil,
                reason: "the range 978-6700000 is not defined for use"))
        #expect(ISBN.judge(ean: isbn("978670000000")).isbn != nil)
        // 979-0… is not an ISBN group at all (ISMN), and 979-2… not defined.
        #expect(ranges.hyphenate(isbn("979200000000")).hyphenated == nil)
    }

    @Test func anHTMLErrorPageIsRefused() {
        let page = "<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body>Try later</body></html>"
        #expect(throws: RangeMessageError("not an ISBN range message (no ISBNRangeMessage element)")) {
            try RangeMessage(xml: page)
        }
    }

    @Test func aTruncatedDownloadIsRefused() {
        let half = String(decoding: RangeMessage.bundledText.utf8.prefix(RangeMessage.bundledText.utf8.count / 2), as: UTF8.self)
        let bytes = half.utf8.count
        #expect(throws: RangeMessageError("truncated: the message ends after \(bytes) bytes, before its closing </ISBNRangeMessage> tag (an incomplete download)")) {
            try RangeMessage(xml: half)
        }
        // Cut inside the document type declaration, before the root element starts: truncated too.
        let head = String(decoding: RangeMessage.bundledText.utf8.prefix(200), as: UTF8.self)
        #expect(throws: RangeMessageError("truncated: the message ends after 200 bytes, before its closing </ISBNRangeMessage> tag (an incomplete download)")) {
            try RangeMessage(xml: head)
        }
    }

    @Test func aBadRangeIsRefused() {
        let bad = RangeMessage.bundledText.replacingOccurrences(of: "<Range>0000000-1999999</Range>", with: "<Range>0000000-19999</Range>")
        #expect(throws: RangeMessageError("978-0: bad Range '0000000-19999'")) { try RangeMessage(xml: bad) }
    }
}

@Suite struct AddOnPriceTests {
    @Test(arguments: [
        ("51995", "USD 19.95"), ("50799", "USD 7.99"), ("59999", "USD 99.99 or more"), ("00799", "GBP 7.99"),
        ("11250", "GBP 12.50"), ("34995", "AUD 49.95"), ("42000", "NZD 20.00"), ("62500", "CAD 25.00"),
        ("90000", "no suggested retail price"), ("91234", "internal use"), ("99990", "reserved (used book)"),
        ("99991", "reserved (desk copy)"), ("99500", "reserved"), ("72000", "no currency assigned to 7"),
    ])
    func decodes(addOn: String, meaning: String) throws {
        #expect(try #require(AddOnPrice(addOn: addOn)).description == meaning)
    }

    @Test func amountsAndKinds() throws {
        let price = try #require(AddOnPrice(addOn: "51995"))
        #expect(price.currency == "USD" && price.amount == "19.95" && price.kind == .price)
        #expect(AddOnPrice(addOn: "90000")?.kind == .noPrice && AddOnPrice(addOn: "90000")?.currency == nil)
        #expect(AddOnPrice(addOn: "12") == nil)  // EAN-2: an issue number
        #expect(AddOnPrice(addOn: "5199a") == nil)
    }
}

@Suite struct PrefixPolicyTests {
    @Test func ninehundredSeventyNineOnlyWhenAsked() {
        #expect(ISBN.judge(ean: "9791032305690").rejection?.reason == .prefix)
        let accepted = ISBN.judge(ean: "9791032305690", accepting: .with979).isbn
        #expect(accepted?.isbn13 == "9791032305690")
        #expect(accepted?.isbn10 == nil)
        #expect(ISBN.judge(ean: "9798886450125", accepting: .with979).isbn != nil)
        #expect(ISBN.judge(typed: "979-10-323-0569-0", accepting: .with979).isbn?.isbn13 == "9791032305690")
        // A wrong check digit is still wrong.
        #expect(ISBN.judge(ean: "9791032305691", accepting: .with979).rejection?.reason == .checkDigit)
    }

    @Test func ismnIsRefusedEitherWay() {
        for prefixes in [ISBNPrefixes.only978, .with979] {
            let rejection = ISBN.judge(ean: "9790230671187", accepting: prefixes).rejection
            #expect(rejection == Rejection(.ismn, "prefix 979-0 is an ISMN (printed music), not an ISBN"))
        }
    }
}
