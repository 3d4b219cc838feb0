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

    /// `ISBN 699-0000-00-7`: the check digit is right, but 978-699 is a range the range message does
    /// not define, so no book carries it: refused (`prefix`), not read.
    @Test func aNumberInNoRangeOfTheRangeMessageIsRefused() throws {
        let readings = reader.read(try page("undefined-range"))
        #expect(readings.map(\.verdict) == [.rejected(Rejection(.prefix, "9786990000008 lies in no range of the ISBN range message: not a printed ISBN"))])
        #expect(readings.first?.digits == "6990000007")
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

    /// A price label turned by 35° on a dark cover (TestImages/text/turned-35-degrees.png): beyond
    /// what the layout analysis straightens, so read from the lines found by their characters.
    @Test func readsALabelTurnedByAnyAngle() throws {
        let image = try page("turned-35-degrees")
        let lines = PrintedISBNReader.typeLines(in: PrintedISBNReader.evenedOut(image))
        // Both lines of the label, running up to the right: 35° counter-clockwise, 145° as a direction.
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { abs($0.angle - 145) <= 2 }, "\(lines.map(\.angle))")
        let readings = reader.read(image)
        #expect(readings.compactMap(\.verdict.isbn?.isbn13) == ["9780312456788"])
        #expect(readings.first?.orientation == 0)
        // Its polygon is on the label, around the middle of the 560x460 cover.
        let xs = readings.first?.polygon.map(\.x) ?? [], ys = readings.first?.polygon.map(\.y) ?? []
        #expect(xs.allSatisfy { (90...470).contains($0) } && ys.allSatisfy { (60...400).contains($0) }, "\(xs) \(ys)")
    }

    /// An ISBN-13 line the photo cuts after `978-1-58573-0`: those ten digits are a valid ISBN-10
    /// (of the 978 group, Nigeria), which is refused, not read.
    @Test func aLineCutByThePhotosEdgeIsRefused() throws {
        let readings = reader.read(try page("cut-off-by-the-edge"))
        #expect(readings.compactMap(\.verdict.isbn) == [])
        #expect(readings.map(\.verdict.rejection?.reason) == [.length])
        #expect(readings.first?.verdict.rejection?.detail == "the printed line runs off the edge of the photo after 9781585730: digits may be missing")
    }

    /// Real photos (zxing-cpp's test samples, TestImages/covered) whose EAN-13 and the digits under
    /// it were covered with a patch of paper (Bench/make_covered_set.py): beside the patch the layout
    /// analysis finds no line; the line found by its characters is read (ean13-1-25), and a line in
    /// a dot-matrix type whose first readings disagree is read at more scales (ean13-extension-1-2,
    /// its ISBN-10 line; its ISBN-13 line reads 9 as 4 and is refused).
    @Test(arguments: [("ean13-1-25", "9780140013993"), ("ean13-extension-1-2", "9780884271789")])
    func readsTheLineAboveACoveredBarcode(name: String, isbn: String) throws {
        let image = try ImageLoader.load(path: "\(testImages)/covered/\(name).jpg").image
        #expect(reader.read(image).compactMap(\.verdict.isbn?.isbn13) == [isbn])
    }

    /// A page of noise (600x600, a fixed pseudo-random sequence): a page of countless lines of
    /// ink that are no text. It gives no ISBN, and the reader hands Tesseract no more than its
    /// budget: here 12 lines, every one of them spent on the lines found from the noise's shapes.
    @Test func aPageOfNoiseCostsNoMoreThanTheBudget() throws {
        let budget = TextBudget(lines: 12)
        let reader = try PrintedISBNReader(budget: budget)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = LuminanceImage(width: 600, height: 600, pixels: (0..<360_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
        #expect(reader.read(noise) == [])
        #expect(reader.work.lines == 12)
        #expect(reader.work.largestPage <= budget.pagePixels)
        #expect(reader.work.pixels <= budget.pixels)
    }

    /// A page over the budget's pixels for a page look (the fixture enlarged 3 times: 1152x558, to
    /// a budget of 200,000) is looked at scaled down, and still reads its exact ISBN, its polygon
    /// in pixels of the page given.
    @Test func aPageOverThePagePixelsIsReadScaledDown() throws {
        let budget = TextBudget(pagePixels: 200_000)
        let reader = try PrintedISBNReader(budget: budget)
        let large = try page("isbn10-hyphenated").upscaled(by: 3)
        let readings = reader.read(large)
        #expect(readings.compactMap(\.verdict.isbn?.isbn13) == ["9780306406157"])
        #expect(reader.work.largestPage <= 200_000)
        #expect(reader.work.largestPage > 150_000)
        let ys = readings.first?.polygon.map(\.y) ?? []
        #expect(ys.allSatisfy { (3 * 80...3 * 160).contains($0) }, "\(ys)")
    }

    /// The default budget leaves a page of text as it is: the fixture's page looks are the page's
    /// own pixels.
    @Test func theDefaultBudgetLeavesAPageAsItIs() throws {
        let image = try page("two-isbns-qualifiers")
        #expect(reader.read(image).compactMap(\.verdict.isbn?.isbn13) == ["9780306406157", "9781566199094"])
        #expect(reader.work.largestPage == image.width * image.height)
        #expect(reader.work.refused == 0)
        #expect(reader.budget == TextBudget(pagePixels: 4_000_000, blockPixels: 1_000_000, typeLinePixels: 16_000_000,
                                           lines: 40, pixels: 40_000_000))
    }

    /// A line whose capitals are 6.5 pixels tall (TestImages/text/small-capitals-6.5px.png): its strip
    /// is enlarged past 4 times with a cubic kernel (bilinear to 4 times read it as nothing).
    @Test func readsALineWhoseCapitalsAreSixAndAHalfPixelsTall() throws {
        let readings = reader.read(try page("small-capitals-6.5px"))
        #expect(readings.compactMap(\.verdict.isbn?.isbn13) == ["9780393058673"])
        #expect(readings.map(\.digits) == ["9780393058673"])
        let expected = try String(contentsOfFile: "\(testImages)/text/small-capitals-6.5px.txt", encoding: .utf8)
        #expect(expected == "9780393058673")
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
