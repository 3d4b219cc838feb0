// SPDX-License-Identifier: Apache-2.0
/// The International ISBN Agency's range message (ISO 2108 §5; `RangeMessage.xml` from
/// isbn-international.org): how long the registration-group and registrant elements of an ISBN
/// are, which gives its hyphenated form and its registration group (country or language area).
///
/// For each GS1 prefix (978, 979) the file lists ranges of the 7 digits after the prefix with the
/// length of the group element; for each group (e.g. `978-4`, Japan) ranges of the 7 digits after
/// the group with the length of the registrant element. Length 0 means "not defined for use":
/// such an ISBN is valid but cannot be hyphenated, and isbnscan never guesses.
public struct RangeMessage: Sendable {
    /// One `Rule`: the 7-digit values `low...high` give an element of `length` digits (0…7;
    /// 0 = not defined for use).
    public struct Rule: Sendable, Equatable {
        public let low: Int
        public let high: Int
        public let length: Int
    }

    /// A registration group: `978-4` and its agency's name, "Japan".
    public struct RegistrationGroup: Sendable, Hashable {
        /// GS1 prefix and group element, hyphenated: `"978-4"`.
        public let prefix: String
        /// The agency name as the message gives it (a country or language area).
        public let agency: String
        public init(prefix: String, agency: String) {
            self.prefix = prefix
            self.agency = agency
        }
    }

    /// The message as flat arrays, as parsed from the XML or compiled in (``bundled``): one
    /// block per `EAN.UCC` element (the GS1 prefixes, first) and per `Group`, in message order,
    /// and every block's rules one after the other.
    struct Table: Sendable, Equatable {
        var serialNumber: String?
        var date: String
        /// Blocks `0..<prefixCount` are `EAN.UCC` elements, the others registration groups.
        var prefixCount: Int
        /// Per block: its prefix (`978`, `978-4`) and agency name.
        var prefixes: [String]
        var agencies: [String]
        /// Block `i`'s rules are `firstRule[i]..<firstRule[i + 1]` (one more entry than blocks).
        var firstRule: [Int32]
        /// Per rule: its range `lows[r]...highs[r]` of 7-digit values and its `lengths[r]`.
        var lows: [Int32]
        var highs: [Int32]
        var lengths: [UInt8]
    }

    /// The blocks and rules.
    let table: Table
    /// The block of each prefix (the last block when a prefix is repeated).
    private let blockIndex: [String: Int]

    /// `MessageSerialNumber` (changes with every download), or `nil` when absent.
    public var serialNumber: String? { table.serialNumber }
    /// `MessageDate`, as written (`Sat, 22 Aug 2026 17:51:37 BST`).
    public var date: String { table.date }
    /// How many registration groups the message defines.
    public var groupCount: Int { groupBlocks.count }
    /// Rules per GS1 prefix (`"978"`, `"979"`).
    public var prefixRules: [String: [Rule]] {
        Dictionary((0..<table.prefixCount).map { (table.prefixes[$0], rules(ofBlock: $0)) }, uniquingKeysWith: { _, last in last })
    }
    /// Groups by their hyphenated prefix, with their registrant rules.
    public var groups: [String: (group: RegistrationGroup, rules: [Rule])] {
        Dictionary(uniqueKeysWithValues: groupBlocks.map { (table.prefixes[$0], (group(ofBlock: $0), rules(ofBlock: $0))) })
    }

    /// The blocks that are registration groups (the last of each prefix).
    private var groupBlocks: [Int] {
        (table.prefixCount..<table.prefixes.count).filter { blockIndex[table.prefixes[$0]] == $0 }
    }

    private func rules(ofBlock block: Int) -> [Rule] {
        (Int(table.firstRule[block])..<Int(table.firstRule[block + 1])).map {
            Rule(low: Int(table.lows[$0]), high: Int(table.highs[$0]), length: Int(table.lengths[$0]))
        }
    }

    private func group(ofBlock block: Int) -> RegistrationGroup {
        RegistrationGroup(prefix: table.prefixes[block], agency: table.agencies[block])
    }

    /// The copy compiled into isbnscan (see `Sources/ISBN/Resources/README.md`): the table
    /// `make ranges-source` wrote from it, so no run parses the XML.
    public static let bundled = RangeMessage(checked: bundledTable)

    /// A message from a table already checked (the bundled one, checked by the tests against
    /// its XML).
    init(checked table: Table) {
        self.table = table
        var blockIndex: [String: Int] = [:]
        blockIndex.reserveCapacity(table.prefixes.count)
        // EAN.UCC blocks and groups have distinct prefixes ("978" and "978-0"): one index serves both.
        for (block, prefix) in table.prefixes.enumerated() { blockIndex[prefix] = block }
        self.blockIndex = blockIndex
    }

    /// Parses and checks a range message.
    ///
    /// Checks: an `ISBNRangeMessage` root with a `MessageDate`; rules for both 978 and 979; at
    /// least 100 registration groups; every `Range` of the form `ddddddd-ddddddd` with low ≤ high,
    /// every `Length` 0…7, ranges in ascending order without overlap; every group's prefix
    /// consistent with the rules of its GS1 prefix.
    /// - Throws: ``RangeMessageError`` saying which check failed (an HTML error page fails the first;
    ///   a download cut short, where the message starts but `</ISBNRangeMessage>` never comes,
    ///   is `truncated: …`).
    public init(xml: String) throws(RangeMessageError) {
        let text = Array(xml.utf8)
        guard let root = Self.element("ISBNRangeMessage", in: text[...]) else {
            let started = ["<ISBNRangeMessage>", "<ISBNRangeMessage ", "<!DOCTYPE ISBNRangeMessage"].contains {
                Self.find(Array($0.utf8), in: text[...], from: 0) != nil
            }
            if started {
                throw RangeMessageError("truncated: the message ends after \(text.count) bytes, before its closing "
                                        + "</ISBNRangeMessage> tag (an incomplete download)")
            }
            throw RangeMessageError("not an ISBN range message (no ISBNRangeMessage element)")
        }
        guard let date = Self.element("MessageDate", in: root).map(Self.string), !date.isEmpty else {
            throw RangeMessageError("no MessageDate")
        }
        var table = Table(serialNumber: Self.element("MessageSerialNumber", in: root).map(Self.string), date: date,
                          prefixCount: 0, prefixes: [], agencies: [], firstRule: [0], lows: [], highs: [], lengths: [])
        var prefixRules: [String: Range<Int>] = [:]
        for block in Self.elements("EAN.UCC", in: root) {
            let (prefix, _) = try Self.block(block, into: &table)
            prefixRules[prefix] = Int(table.firstRule[table.firstRule.count - 2])..<Int(table.firstRule[table.firstRule.count - 1])
        }
        table.prefixCount = table.prefixes.count
        for prefix in ["978", "979"] where prefixRules[prefix] == nil {
            throw RangeMessageError("no rules for the GS1 prefix \(prefix)")
        }
        var groups = Set<String>()
        for block in Self.elements("Group", in: root) {
            let (prefix, _) = try Self.block(block, into: &table)
            let parts = prefix.split(separator: "-")
            guard parts.count == 2, let rulesOfPrefix = prefixRules[String(parts[0])], (1...5).contains(parts[1].count),
                  let value = Int(parts[1] + String(repeating: "0", count: 7 - parts[1].count)),
                  let rule = rulesOfPrefix.first(where: { table.lows[$0] <= value && value <= table.highs[$0] }),
                  Int(table.lengths[rule]) == parts[1].count else {
                throw RangeMessageError("group \(prefix) does not match the rules of its GS1 prefix")
            }
            groups.insert(prefix)
        }
        guard groups.count >= 100 else {
            throw RangeMessageError("only \(groups.count) registration groups (the agency's message has about 290)")
        }
        self.init(checked: table)
    }

    /// The outcome of hyphenating an ISBN-13.
    public enum Hyphenation: Sendable, Equatable {
        /// `978-4-87311-903-8` and its group.
        case hyphenated(String, group: RegistrationGroup)
        /// A valid ISBN whose group or registrant range is not defined for use (or not in this
        /// message): it cannot be hyphenated. `group` when the group itself is known.
        case notHyphenatable(group: RegistrationGroup?, reason: String)

        public var hyphenated: String? {
            if case .hyphenated(let text, _) = self { return text }
            return nil
        }

        public var group: RegistrationGroup? {
            switch self {
            case .hyphenated(_, let group): return group
            case .notHyphenatable(let group, _): return group
            }
        }
    }

    /// Hyphenates `isbn13` (13 digits, prefix 978 or 979; the check digit is not checked here).
    ///
    /// The 7 digits after the GS1 prefix pick the group length; the 7 digits after the group
    /// (padded with zeros on the right) pick the registrant length; the publication element is
    /// the rest before the check digit.
    public func hyphenate(_ isbn13: String) -> Hyphenation {
        let digits = Array(isbn13.utf8)
        guard digits.count == 13, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            return .notHyphenatable(group: nil, reason: "not 13 digits")
        }
        let prefix = String(decoding: digits[0..<3], as: UTF8.self)
        let rest = Array(digits[3...])
        guard let prefixBlock = blockIndex[prefix], prefixBlock < table.prefixCount else {
            return .notHyphenatable(group: nil, reason: "prefix \(prefix) is not an ISBN prefix")
        }
        let groupLength = length(of: rest[0..<7], inBlock: prefixBlock)
        guard groupLength > 0 else {
            return .notHyphenatable(group: nil, reason: "the range \(prefix)-\(String(decoding: rest[0..<7], as: UTF8.self)) is not defined for use")
        }
        let groupPrefix = prefix + "-" + String(decoding: rest[0..<groupLength], as: UTF8.self)
        guard let groupBlock = blockIndex[groupPrefix], groupBlock >= table.prefixCount else {
            return .notHyphenatable(group: nil, reason: "registration group \(groupPrefix) is not in the range message")
        }
        let group = group(ofBlock: groupBlock)
        var after = Array(rest[groupLength...].prefix(7))
        while after.count < 7 { after.append(48) }
        let registrantLength = length(of: after[...], inBlock: groupBlock)
        guard registrantLength > 0, groupLength + registrantLength < 9 else {
            return .notHyphenatable(group: group, reason: "the registrant range is not defined for use in group \(groupPrefix)")
        }
        let registrant = rest[groupLength..<(groupLength + registrantLength)]
        let publication = rest[(groupLength + registrantLength)..<9]
        let text = [groupPrefix, String(decoding: registrant, as: UTF8.self), String(decoding: publication, as: UTF8.self),
                    String(decoding: rest[9...], as: UTF8.self)].joined(separator: "-")
        return .hyphenated(text, group: group)
    }

    /// The length of the rule of `block` whose range holds the 7 digits `seven`, or 0.
    func length(of seven: ArraySlice<UInt8>, inBlock block: Int) -> Int {
        let value = Int32(seven.reduce(0) { $0 * 10 + Int($1 - 48) })
        for rule in Int(table.firstRule[block])..<Int(table.firstRule[block + 1])
        where table.lows[rule] <= value && value <= table.highs[rule] {
            return Int(table.lengths[rule])
        }
        return 0
    }

    // MARK: Reading the XML (a fixed, flat format: elements without attributes or nesting of the same name)

    /// `<name>` and `</name>` as bytes, made once per name (the rules' tags are read thousands of times).
    struct Tag {
        let open: [UInt8], close: [UInt8]
        init(_ name: String) {
            open = Array("<\(name)>".utf8)
            close = Array("</\(name)>".utf8)
        }
        static let rule = Tag("Rule"), range = Tag("Range"), length = Tag("Length"), prefix = Tag("Prefix"), agency = Tag("Agency")
    }

    /// The content of the first `<name>…</name>` in `text`.
    static func element(_ name: String, in text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? { element(Tag(name), in: text) }

    static func element(_ tag: Tag, in text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let start = find(tag.open, in: text, from: text.startIndex),
              let end = find(tag.close, in: text, from: start + tag.open.count) else { return nil }
        return text[(start + tag.open.count)..<end]
    }

    /// The contents of every `<name>…</name>` in `text`, in order.
    static func elements(_ name: String, in text: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] { elements(Tag(name), in: text) }

    static func elements(_ tag: Tag, in text: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var found: [ArraySlice<UInt8>] = []
        var index = text.startIndex
        while let start = find(tag.open, in: text, from: index) {
            let contentStart = start + tag.open.count
            guard let end = find(tag.close, in: text, from: contentStart) else { break }
            found.append(text[contentStart..<end])
            index = end + tag.close.count
        }
        return found
    }

    /// The index of the first `needle` in `text` at or after `start`.
    static func find(_ needle: [UInt8], in text: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard !needle.isEmpty, text.endIndex - start >= needle.count else { return nil }
        let offset = start - text.startIndex
        return text.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { needle -> Int? in
                let first = needle[0], last = haystack.count - needle.count
                var i = offset
                while i <= last {
                    if haystack[i] == first {
                        var j = 1
                        while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                        if j == needle.count { return i + text.startIndex }
                    }
                    i += 1
                }
                return nil
            }
        }
    }

    /// Element text with surrounding whitespace trimmed and the five XML entities decoded.
    static func string(_ bytes: ArraySlice<UInt8>) -> String {
        var s = replacingControls(String(decoding: bytes, as: UTF8.self))
        guard bytes.contains(UInt8(ascii: "&")) else { return String(s.trimmingWhitespace()) }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            var out = ""
            var rest = Substring(s)
            while let range = rest.firstRange(of: entity) {
                out += rest[..<range.lowerBound] + character
                rest = rest[range.upperBound...]
            }
            s = out + rest
        }
        return String(s.trimmingWhitespace())
    }

    /// `text` with every control character replaced by a space. Names go to terminals: a control
    /// character (ESC, BEL, an OSC sequence's parts, C1 codes) in a downloaded message becomes a
    /// space rather than a command to the terminal.
    static func replacingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    /// C0 controls, DEL and C1 controls (U+0000-001F, U+007F-009F).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }

    /// `bytes` without the ASCII whitespace around them.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    /// The number written by ASCII digits `bytes` (at least one), or `nil`.
    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// Appends one `EAN.UCC` or `Group` element to `table` (a block and its rules) and returns
    /// its prefix and agency.
    static func block(_ block: ArraySlice<UInt8>, into table: inout Table) throws(RangeMessageError) -> (String, String) {
        guard let prefix = element(.prefix, in: block).map(string), !prefix.isEmpty else {
            throw RangeMessageError("a group without a Prefix")
        }
        let agency = element(.agency, in: block).map(string) ?? ""
        let first = table.lows.count
        for rule in elements(.rule, in: block) {
            guard let rangeBytes = element(.range, in: rule).map(trimmed), let lengthBytes = element(.length, in: rule).map(trimmed) else {
                throw RangeMessageError("\(prefix): a Rule without Range or Length")
            }
            // On the bytes: a message holds thousands of rules.
            guard rangeBytes.count == 15, rangeBytes[rangeBytes.startIndex + 7] == UInt8(ascii: "-"),
                  let low = digits(rangeBytes.prefix(7)), let high = digits(rangeBytes.suffix(7)), low <= high else {
                throw RangeMessageError("\(prefix): bad Range '\(string(rangeBytes))'")
            }
            guard let length = digits(lengthBytes), length <= 7 else {
                throw RangeMessageError("\(prefix): bad Length '\(string(lengthBytes))'")
            }
            if table.lows.count > first, low <= Int(table.highs[table.highs.count - 1]) {
                throw RangeMessageError("\(prefix): range \(string(rangeBytes)) overlaps or precedes the one before")
            }
            table.lows.append(Int32(low))
            table.highs.append(Int32(high))
            table.lengths.append(UInt8(length))
        }
        guard table.lows.count > first else { throw RangeMessageError("\(prefix): no rules") }
        table.prefixes.append(prefix)
        table.agencies.append(agency)
        table.firstRule.append(Int32(table.lows.count))
        return (prefix, agency)
    }
}

/// A range message that cannot be used; `message` says which check failed.
public struct RangeMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
