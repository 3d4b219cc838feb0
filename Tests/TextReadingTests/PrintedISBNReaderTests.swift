// SPDX-License-Identifier: Apache-2.0
import Foundation
import Imaging
import ISBN
import Scanning
import TestSupport
import Testing
@testable import TextReading

/// Pages of TestImages/text (TestImages/make_text_pages.py) read with Tesseract.
@Suite(.serialized) struct PrintedISBNReaderTests {
    let reader: PrintedISBNReader

    init() throws { reader = try PrintedISBNReader() }

    func page(_ name: String) throws -> LuminanceImage {
        try ImageLoader.load(path: "\(testImages)/text/\(name).png").image
    }

    @Test(arguments: [("isbn10-hyphenated", ["9780306406157"]), ("isbn13-japan", ["9784101010014"]),
                      ("isbn10-x-check-digit", ["9780804429573"]), ("japanese-c-code", ["9784101010014"]),
                      ("two-isbns-qualifiers", ["9780306406157", "9781566199094"])])
    func readsThePrintedISBN(name: String, isbns: [String]) throws {
        let readings = reader.read(try page(name))
        #expect(readings.compactMap(\.verdict.isbn?.isbn13) == isbns)
        let expected = try String(contentsOfFile: "\(testImages)/text/\(name).txt", encoding: .utf8)
        #expect(isbns.joined(separator: "\n") == expected)
        #expect(readings.allSatisfy { $0.orientation == 0 && $0.polygon.count == 4 })
    }

    @Test func anISBN10KeepsItsPrintedDigitsAndBecomesA978ISBN13() throws {
        let reading = try #require(reader.read(try page("isbn10-x-check-digit")).first)
        #expect(reading.verdict.isbn?.isbn13 == "9780804429573")
        #expect(reading.verdict.isbn?.isbn10 == "080442957X")
        #expect(reading.line.contains("0-8044-2957-X"))
    }

    @Test func aWrongCheckDigitIsRefused() throws {
        let readings = reader.read(try page("wrong-check-digit"))
        #expect(readings.count == 1)
        #expect(readings.first?.verdict == .rejected(Rejection(.checkDigit, "ISBN-10 check digit is 3, expected 2")))
        #expect(readings.first?.digits == "0306406153")
    }

    @Test func aPageOfNumbersWithoutTheKeywordGivesNothing() throws {
        #expect(reader.read(try page("no-isbn-numbers")) == [])
        // Nor does a blank page, in any orientation.
        #expect(reader.read(LuminanceImage(width: 400, height: 300)) == [])
    }

    @Test func qualifiersAreKept() throws {
        let readings = reader.read(try page("two-isbns-qualifiers"))
        #expect(readings.map(\.qualifier) == ["pbk.", "hardcover"])
    }

    /// A page turned by a quarter or a half, or a few degrees: read, and its polygon lies on the
    /// line in the turned image. Turned with Imaging's rotation, not the reader's own turn.
    @Test(arguments: [90.0, 180.0, 270.0, 4.0, -3.0])
    func readsATurnedPage(degrees: Double) throws {
        let upright = try page("isbn10-hyphenated")
        let (turned, toUpright) = upright.rotated(degrees: degrees)
        let readings = reader.read(turned)
        #expect(readings.compactMap(\.verdict.isbn?.isbn13) == ["9780306406157"], "\(degrees)°")
        let reading = try #require(readings.first)
        let quarter = Int(degrees) % 90 == 0 ? Int(degrees) : 0
        #expect(reading.orientation == quarter)
        // The polygon's centre, back in the upright page, is on the third line (drawn at y = 114,
        // 28 px per em, from x = 40), half-way along it.
        let xs = reading.polygon.map { Double($0.x) }, ys = reading.polygon.map { Double($0.y) }
        let (x, y) = toUpright(xs.reduce(0, +) / 4, ys.reduce(0, +) / 4)
        #expect((114.0...150.0).contains(y), "\(degrees)°: centre (\(x), \(y))")
        #expect((40.0...Double(upright.width - 40)).contains(x), "\(degrees)°: centre (\(x), \(y))")
        let inside = reading.polygon.allSatisfy { $0.x >= -2 && $0.y >= -2 && $0.x <= turned.width + 2 && $0.y <= turned.height + 2 }
        #expect(inside, "\(reading.polygon) in \(turned.width)x\(turned.height)")
    }

    @Test func readingsAreScanningsCodes() throws {
        let codes = reader.readCodes(in: try page("two-isbns-qualifiers"), accepting: .only978)
        #expect(codes.map(\.symbol.symbology) == [.isbnText, .isbnText])
        #expect(codes.map(\.symbol.data) == ["9780306406157", "9781566199094"])
        #expect(codes.map(\.symbol.qualifier) == ["pbk.", "hardcover"])
        #expect(codes.map(\.symbol.pass) == ["text", "text"])
        #expect(codes.first?.symbol.printedLine?.hasPrefix("ISBN 0-306-40615-2") == true)
    }

    /// A line the layout analysis cut in two (a widely spaced Japanese line) is read whole; a line
    /// beside it on another baseline is not taken in.
    @Test func joinsTheLineToItsRightOnTheSameBaseline() {
        func line(_ text: String, _ box: (Int, Int, Int, Int), _ baseline: (Int, Int, Int, Int)) -> RecognizedLine {
            RecognizedLine(text: text, confidence: 90, box: (box.0, box.1, box.2, box.3), baseline: (baseline.0, baseline.1, baseline.2, baseline.3))
        }
        let keyword = line("ISBN4-8", (178, 279, 397, 319), (178, 304, 397, 319))
        let rest = line("-861-1 C1098 ¥2607E", (404, 296, 765, 345), (404, 320, 765, 345))
        let above = line("ound printed her britain", (687, 240, 1241, 300), (687, 285, 1241, 300))
        let joined = PrintedISBNReader.joined(keyword, withLinesRightOf: [keyword, rest, above])
        #expect(joined.text == "ISBN4-8 -861-1 C1098 ¥2607E")
        let box: [Int] = [joined.box.left, joined.box.top, joined.box.right, joined.box.bottom]
        #expect(box == [178, 279, 765, 345])
        #expect(joined.baseline.x1 == 765)
    }
}
