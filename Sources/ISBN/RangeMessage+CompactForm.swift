// SPDX-License-Identifier: Apache-2.0
extension RangeMessage {
    /// The message's table as bytes, for a copy kept beside an installed message so that later
    /// runs read it instead of parsing the XML (``init(compactForm:)`` reads it back).
    ///
    /// Layout (integers little-endian): `ISBNRANGES1\n`; UInt32 block count, prefix-block count
    /// and rule count; the serial number (UInt8 1 and a string, or 0), the date; per block its
    /// prefix and agency; then `firstRule` (block count + 1), `lows` and `highs` as Int32 and
    /// `lengths` as UInt8. A string is a UInt32 byte count and its UTF-8 bytes.
    public var compactForm: [UInt8] {
        var out = Array(Self.compactMagic)
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { out += $0 } }
        func i32(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        func text(_ value: String) { u32(value.utf8.count); out += value.utf8 }
        u32(table.prefixes.count)
        u32(table.prefixCount)
        u32(table.lows.count)
        if let serial = table.serialNumber { out.append(1); text(serial) } else { out.append(0) }
        text(table.date)
        for (prefix, agency) in zip(table.prefixes, table.agencies) { text(prefix); text(agency) }
        table.firstRule.forEach(i32)
        table.lows.forEach(i32)
        table.highs.forEach(i32)
        out += table.lengths
        return out
    }

    static let compactMagic = "ISBNRANGES1\n".utf8

    /// Reads ``compactForm`` back, checking its shape (counts, bounds, every rule's order and
    /// length) so that a damaged copy is refused rather than used.
    /// - Throws: ``RangeMessageError`` `not a compact range table: …`.
    public init(compactForm bytes: [UInt8]) throws(RangeMessageError) {
        var reader = CompactReader(bytes: bytes)
        guard bytes.starts(with: Self.compactMagic) else { throw RangeMessageError("not a compact range table: no header") }
        reader.offset = Self.compactMagic.count
        let blocks = try reader.count(), prefixCount = try reader.count(), rules = try reader.count()
        // Every block and rule takes bytes: counts beyond the data are refused before anything is reserved.
        guard prefixCount <= blocks, blocks <= bytes.count, rules <= bytes.count else {
            throw RangeMessageError("not a compact range table: counts past its end")
        }
        // As in the XML: no control character reaches a terminal, whoever wrote the bytes.
        let serial = try reader.byte() == 1 ? Self.replacingControls(try reader.text()) : nil
        var table = Table(serialNumber: serial, date: Self.replacingControls(try reader.text()), prefixCount: prefixCount, prefixes: [], agencies: [],
                          firstRule: [], lows: [], highs: [], lengths: [])
        for _ in 0..<blocks {
            table.prefixes.append(Self.replacingControls(try reader.text()))
            table.agencies.append(Self.replacingControls(try reader.text()))
        }
        table.firstRule = try reader.int32s(blocks + 1)
        table.lows = try reader.int32s(rules)
        table.highs = try reader.int32s(rules)
        table.lengths = try reader.bytes(rules)
        guard reader.offset == bytes.count else { throw RangeMessageError("not a compact range table: bytes after its end") }
        guard table.firstRule.first == 0, table.firstRule.last == Int32(rules),
              zip(table.firstRule, table.firstRule.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw RangeMessageError("not a compact range table: bad block bounds")
        }
        for block in 0..<blocks {
            var previous: Int32 = -1
            for rule in Int(table.firstRule[block])..<Int(table.firstRule[block + 1]) {
                guard previous < table.lows[rule], table.lows[rule] <= table.highs[rule], table.highs[rule] <= 9_999_999,
                      table.lengths[rule] <= 7 else {
                    throw RangeMessageError("not a compact range table: bad rule \(rule)")
                }
                previous = table.highs[rule]
            }
        }
        self.init(checked: table)
    }
}

/// Reads the compact form's fields in order; every read checks the bytes are there.
private struct CompactReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func bytes(_ count: Int) throws(RangeMessageError) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw RangeMessageError("not a compact range table: cut short") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func byte() throws(RangeMessageError) -> UInt8 { try bytes(1)[0] }

    mutating func count() throws(RangeMessageError) -> Int {
        try bytes(4).reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func text() throws(RangeMessageError) -> String {
        String(decoding: try bytes(try count()), as: UTF8.self)
    }

    mutating func int32s(_ count: Int) throws(RangeMessageError) -> [Int32] {
        guard count <= (bytes.count - offset) / 4 else { throw RangeMessageError("not a compact range table: cut short") }
        let raw = try bytes(4 * count)
        var values: [Int32] = []
        values.reserveCapacity(count)
        for i in 0..<count {
            var value: UInt32 = 0
            for k in (0..<4).reversed() { value = value << 8 | UInt32(raw[4 * i + k]) }
            values.append(Int32(bitPattern: value))
        }
        return values
    }
}
