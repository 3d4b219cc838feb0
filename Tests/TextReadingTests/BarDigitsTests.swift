// SPDX-License-Identifier: Apache-2.0
import Imaging
import Scanning
import TestSupport
import Testing
@testable import TextReading

/// The digits printed under an EAN-13 (zint's rendering in TestImages/isbn), read as a second witness.
@Suite(.serialized) struct BarDigitsTests {
    let reader: PrintedISBNReader
    init() throws { reader = try PrintedISBNReader() }

    /// png-gray8.png: 501×312, 4 px per module; zbar's box of it (`isbnscan scan --json`).
    let quad = [Point(x: 81, y: 40), Point(x: 461, y: 40), Point(x: 461, y: 238), Point(x: 81, y: 238)]

    func image() throws -> LuminanceImage { try ImageLoader.load(path: "\(testImages)/isbn/png-gray8.png").image }

    @Test func readsTheDigitsUnderTheBars() throws {
        let digits = try #require(reader.digitsUnderBars(in: try image(), quadrilateral: quad))
        #expect(digits.digits == "9780306406157")
        #expect(digits.guardsBlanked)
        // The unrestricted reading, '9 "780306"406157!!', has the same 13 digits.
        #expect(digits.confidence > 0.3)
    }

    /// A decoder's box that covers only the middle rows of the bars: the digits are found below them.
    @Test func findsTheBarsEndBelowAShortBox() throws {
        let short = [Point(x: 81, y: 100), Point(x: 461, y: 100), Point(x: 461, y: 160), Point(x: 81, y: 160)]
        #expect(reader.digitsUnderBars(in: try image(), quadrilateral: short)?.digits == "9780306406157")
    }

    @Test func readsASymbolTurnedUpsideDown() throws {
        let upright = try image()
        let turned = upright.rotated(degrees: 180).image
        // The symbol's own corners, turned with it (a half turn about the centre).
        let corners = quad.map { Point(x: upright.width - $0.x, y: upright.height - $0.y) }
        #expect(reader.digitsUnderBars(in: turned, quadrilateral: corners)?.digits == "9780306406157")
    }

    @Test func readsSlightlyBlurredDigits() throws {
        let blurred = try image().boxBlurred().boxBlurred()
        #expect(reader.digitsUnderBars(in: blurred, quadrilateral: quad)?.digits == "9780306406157")
    }

    /// TestImages/witness: bars whose halves read two codes; the decoder with the reader as its
    /// witness takes the one printed under them, upright, turned a quarter clockwise and upside
    /// down (the symbol's own corners from zbar's orientation).
    @Test(arguments: [0, 90, 180])
    func theDecoderTakesTheCodePrintedUnderAmbiguousBars(degrees: Int) throws {
        let folder = "\(testImages)/witness"
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal)
        decoder.witness = reader
        // A quarter turn clockwise, pixel for pixel (bilinear resampling would change the bars).
        func quarterTurned(_ image: LuminanceImage) -> LuminanceImage {
            LuminanceImage(width: image.height, height: image.width) { out in
                for y in 0..<image.width {
                    for x in 0..<image.height { out[y * image.height + x] = image[y, image.height - 1 - x] }
                }
            }
        }
        func isbns(_ file: String) throws -> [String] {
            let image = try ImageLoader.load(path: "\(folder)/\(file)").image
            let turned = degrees == 0 ? image : degrees == 90 ? quarterTurned(image) : image.rotated(degrees: 180).image
            return decoder.decode(turned).isbns.map(\.isbn13)
        }
        #expect(try isbns("two-ways-printed-true.png") == ["9780716717720"])
        #expect(try isbns("two-ways-printed-rival.png") == ["9780716777120"])
        #expect(try isbns("two-ways-printed-other.png") == [])
        #expect(try isbns("plain-printed-other.png") == ["9780716717720"])
    }

    /// The lazy reader (`--effort thorough`) is a witness too, opening Tesseract on first use.
    @Test func theLazyReaderReadsTheDigits() throws {
        let image = try ImageLoader.load(path: "\(testImages)/witness/two-ways-printed-other.png").image
        let corners = [Point(x: 83, y: 38), Point(x: 465, y: 38), Point(x: 465, y: 239), Point(x: 83, y: 239)]
        #expect(LazyPrintedISBNReader().printedDigits(in: image, quadrilateral: corners) == "9780716717744")
    }

    @Test func givesNothingWhereNoDigitsArePrinted() throws {
        // The same symbol with everything below the normal bars painted white.
        let source = try image()
        let cut = LuminanceImage(width: source.width, height: source.height) { out in
            for y in 0..<source.height { for x in 0..<source.width { out[y * source.width + x] = y > 236 ? 255 : source[x, y] } }
        }
        #expect(reader.digitsUnderBars(in: cut, quadrilateral: quad) == nil)
        #expect(reader.digitsUnderBars(in: source, quadrilateral: Array(quad.prefix(3))) == nil)
    }
}
