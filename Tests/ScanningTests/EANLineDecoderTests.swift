// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging
@testable import Scanning

@Suite struct EANLineDecoderTests {
    /// The 95 modules of an EAN-13 (true = bar), GS1 General Specifications §5.2.1.
    func modules(_ digits: String) -> [Bool] {
        let d = digits.map { Int(String($0))! }
        let l = EANLineDecoder.lWidths
        func pattern(_ widths: [Double], startsDark: Bool) -> [Bool] {
            var out: [Bool] = [], dark = startsDark
            for w in widths { out += Array(repeating: dark, count: Int(w)); dark.toggle() }
            return out
        }
        var out = [true, false, true]
        let parity = EANLineDecoder.parities[d[0]]
        for i in 1...6 { out += pattern(parity[i - 1] ? l[d[i]].reversed() : l[d[i]], startsDark: false) }
        out += [false, true, false, true, false]
        for i in 7...12 { out += pattern(l[d[i]], startsDark: true) }
        return out + [true, false, true]
    }

    /// The L, G and R sets of GS1 General Specifications §5.2.1.2.1 (sets A, B, C), digits 0…9,
    /// 1 = bar: what `lWidths` must give when L and G start with a space and R with a bar.
    @Test func lWidthsAreTheGS1CharacterSets() {
        let setA = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
        let setB = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111"]
        let setC = ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"]
        func bits(_ widths: [Double], startsDark: Bool) -> String {
            var out = "", dark = startsDark
            for w in widths { out += String(repeating: dark ? "1" : "0", count: Int(w)); dark.toggle() }
            return out
        }
        for digit in 0..<10 {
            let widths = EANLineDecoder.lWidths[digit]
            #expect(bits(widths, startsDark: false) == setA[digit], "L \(digit)")
            #expect(bits(widths.reversed(), startsDark: false) == setB[digit], "G \(digit)")
            #expect(bits(widths, startsDark: true) == setC[digit], "R \(digit)")
        }
    }

    /// A line of samples: quiet zones, then the modules with widths growing from `from` to
    /// `to` pixels across the symbol (perspective, a curved cover), soft edges.
    func line(_ digits: String, from: Double, to: Double) -> [UInt8] {
        let bars = modules(digits)
        var samples = [UInt8](repeating: 230, count: Int(12 * from))
        for (i, bar) in bars.enumerated() {
            let width = from + (to - from) * Double(i) / Double(bars.count)
            let start = samples.count
            while Double(samples.count - start) < width || samples.count == start { samples.append(bar ? 30 : 230) }
        }
        samples += [UInt8](repeating: 230, count: Int(12 * to))
        return samples
    }

    @Test(arguments: [(2.0, 2.0), (1.5, 3.5), (4.0, 2.0), (1.0, 1.0)])
    func readsEachDigitAtItsOwnWidth(from: Double, to: Double) {
        let samples = line("9780306406157", from: from, to: to)
        let readings = samples.withUnsafeBufferPointer { EANLineDecoder.decode($0) }
        #expect(readings.map(\.digits) == ["9780306406157"])
        #expect(readings.first?.symbology == .ean13)
    }

    /// Its readings name their measurement, which the arbiter counts apart from zbar's.
    @Test func itsReadingsAreCharacterWidthMeasurements() {
        let row = line("9780306406157", from: 2, to: 2)
        let image = LuminanceImage(width: row.count, height: 40, pixels: Array((0..<40).map { _ in row }.joined()))
        let symbols = EANLineDecoder.scan(image, pass: "lines")
        #expect(symbols.map(\.data) == ["9780306406157"])
        #expect(symbols.map(\.measurement) == [.characterWidths])
    }

    @Test func readsRightToLeft() {
        let samples = Array(line("9780553293357", from: 3, to: 3).reversed())
        #expect(samples.withUnsafeBufferPointer { EANLineDecoder.decode($0) }.map(\.digits) == ["9780553293357"])
    }

    @Test func aWrongCheckDigitReadsNothing() {
        // The bars of 978030640615 with check digit 8 instead of 7.
        let samples = line("9780306406158", from: 3, to: 3)
        #expect(samples.withUnsafeBufferPointer { EANLineDecoder.decode($0) }.isEmpty)
    }

    @Test func anImageNeedsTwoAgreeingLines() {
        let row = line("9780306406157", from: 2, to: 2)
        let one = LuminanceImage(width: row.count, height: 1, pixels: row)
        #expect(EANLineDecoder.scan(one, pass: "lines").map(\.data) == ["9780306406157"])  // a one-pixel strip
        var rows = [UInt8](repeating: 230, count: row.count * 40)
        for x in 0..<row.count { rows[20 * row.count + x] = row[x] }  // one line in 40 carries it
        let lone = LuminanceImage(width: row.count, height: 40, pixels: rows)
        #expect(EANLineDecoder.scan(lone, pass: "lines").isEmpty)
    }
}
