// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import ISBN
import Scanning

/// Reads the ISBNs printed as text on a page, a back cover or a copyright page
/// (`isbnscan scan --text`), with Tesseract.
///
/// 1. The light is evened out (each pixel divided by the paper's brightness around it), so that a
///    dim corner or a shadow does not fall below Tesseract's one threshold for the page.
/// 2. Tesseract's layout analysis finds the lines and recognises them with every character
///    (`PSM_AUTO`). Only lines with the keyword `ISBN` (``PrintedISBNLine/hasKeyword(_:)``) are
///    looked at.
/// 3. Each such line is cut out along its baseline (a page turned by a few degrees), scaled to
///    40 pixels of text height and read again as one line with the characters of an ISBN line
///    only (``whitelist``: digits, `X`, `I S B N`, hyphens, spaces, the colon of `ISBN-13:`, and
///    `C`, `¥`, `E` of the Japanese `C0193 ¥476E`).
/// 4. Each reading is judged by the ISBN rules (``ISBN/judge(typed:accepting:)``: check digit,
///    978/979; an ISBN-10 becomes its 978 ISBN-13) and must lie in a range the range message
///    defines (a number that cannot be hyphenated is no ISBN printed in a book). The line is
///    accepted when two readings give the same ISBN; when they do not, the line is read a third
///    time at another scale (28 pixels) and the ISBN two of the three readings give is accepted.
///    Two different valid ISBNs from one line, or a single valid reading, are refused as
///    ``RejectionReason/ambiguous``; a line whose readings fail is refused with the reason of the
///    first that does (`check-digit`…).
/// 5. Orientation: the page is read as it is, then turned 90°, 270° and 180° clockwise, until a
///    turn shows an `ISBN` line or reads as text (five words of three letters or more, on lines of
///    confidence 70 or more): a photo's EXIF orientation is applied before.
/// 6. Size: when no turn shows an `ISBN` line, a page whose lines are under 22 pixels tall (7 pt
///    at 150 dpi) is read once more at twice the size, in the turn that read most words; a page
///    where the layout analysis finds fewer than 3 lines (a few lines of large type, which it may
///    take for a picture) is read once more upright as one block of text (`PSM_SINGLE_BLOCK`).
///
/// One per worker: it owns a Tesseract engine, which is not thread-safe.
public final class PrintedISBNReader: PrintedISBNReading {
    let engine: TesseractEngine
    private let ranges: RangeMessage

    /// The characters of the line re-read: what an ISBN line holds.
    static let whitelist = "0123456789XISBN-: C\u{00A5}E"

    /// Opens Tesseract (the first reader of the process loads the library).
    ///
    /// - Parameter ranges: the range message whose ranges an ISBN read must lie in.
    /// - Throws: ``TextReadingError`` when libtesseract or its English data is missing.
    public init(ranges: RangeMessage = .bundled) throws(TextReadingError) {
        engine = try TesseractEngine()
        self.ranges = ranges
    }

    /// One printed ISBN read on a page.
    public struct Reading: Sendable, Equatable {
        /// The verdict on the digits read (an ISBN-10 judged as its ISBN-13).
        public var verdict: Verdict
        /// The digits as printed, no separators: 10 (the last may be `X`) or 13.
        public var digits: String
        /// The line as the page's reading recognised it.
        public var line: String
        /// The qualifier after the ISBN (`pbk.`), or `nil`.
        public var qualifier: String?
        /// Tesseract's confidence in the line, 0…100.
        public var confidence: Int
        /// Direction the line is read in, degrees clockwise from left-to-right: 0, 90, 180, 270.
        public var orientation: Int
        /// The line's quadrilateral in pixels of the image read, clockwise from the top-left of
        /// the line as read.
        public var polygon: [Point]
    }

    /// The printed ISBNs of `image` (upright 8-bit luminance), in the order of the page read.
    public func read(_ image: LuminanceImage, accepting prefixes: ISBNPrefixes = .only978) -> [Reading] {
        let flat = Self.evenedOut(image)
        var best: (turn: Int, lines: [RecognizedLine], words: Int)?
        for turn in [0, 90, 270, 180] {
            let look = examine(Self.turned(flat, clockwise: turn), turn: turn, scale: 1, accepting: prefixes)
            if let readings = look.readings { return readings }
            if look.words > best?.words ?? -1 { best = (turn, look.lines, look.words) }
            if look.words >= 5 { break }
        }
        // Type too small for Tesseract's layout analysis (lines under 22 pixels tall: 7 pt at
        // 150 dpi): one more look at the likeliest turn at twice the size. A page where it finds
        // hardly a line (a few lines of large type, taken for a picture): one look at the upright
        // page as a single block of text.
        guard let best else { return [] }
        let heights = best.lines.map(\.textHeight).sorted()
        if best.lines.count < 3 {
            return examine(flat, turn: 0, scale: 1, layout: .block, accepting: prefixes).readings ?? []
        }
        guard heights[heights.count / 2] < 22 else { return [] }
        let scaled = Self.turned(flat, clockwise: best.turn).upscaled(by: 2)
        return examine(scaled, turn: best.turn, scale: 2, accepting: prefixes).readings ?? []
    }

    /// One page reading of `image` (`turned` by `turn` clockwise and scaled by `scale` from the
    /// upright page): the readings of its `ISBN` lines, `nil` when it shows no such line; its
    /// lines; and how many words it read as text (five words of three letters or more, on
    /// lines of confidence 70 or more, mean the page was read the right way up).
    private func examine(_ image: LuminanceImage, turn: Int, scale: Double, layout: PageLayout = .page,
                         accepting prefixes: ISBNPrefixes) -> (readings: [Reading]?, lines: [RecognizedLine], words: Int) {
        let lines = engine.recognize(image, layout: layout)
        var readings: [Reading] = [], sawKeyword = false, words = 0
        let heights = lines.map(\.textHeight).sorted()
        let typical = heights.isEmpty ? 0 : heights[heights.count / 2]
        // A line Tesseract found running down the page is read when the page is turned.
        let across = lines.filter { $0.box.right - $0.box.left > $0.box.bottom - $0.box.top }
        for found in across {
            if found.confidence >= 70 {
                words += found.text.split(separator: " ").count { $0.count >= 3 && $0.allSatisfy(\.isLetter) }
            }
            guard PrintedISBNLine.hasKeyword(found.text) else { continue }
            let line = Self.joined(found, withLinesRightOf: across)
            let printed = PrintedISBNLine.parse(line.text)
            sawKeyword = true
            readings += judge(line, printed, in: image, turn: turn, scale: scale, typical: typical, accepting: prefixes)
        }
        return (sawKeyword ? readings : nil, lines, words)
    }

    public func readCodes(in image: LuminanceImage, accepting prefixes: ISBNPrefixes) -> [ReadCode] {
        read(image, accepting: prefixes).map { reading in
            let data = reading.verdict.isbn?.isbn13 ?? reading.digits
            var symbol = Symbol(symbology: .isbnText, data: data, quality: reading.confidence, orientation: reading.orientation,
                                polygon: reading.polygon, pass: "text")
            symbol.printedLine = reading.line
            symbol.qualifier = reading.qualifier
            return ReadCode(symbol: symbol, verdict: reading.verdict)
        }
    }

    /// `line` with the lines the layout analysis found to its right on the same baseline (it may
    /// cut a widely spaced line in two, as two columns): their text after its text, its box grown
    /// over theirs, its baseline drawn on to their right end. A line of the page's next column
    /// whose baseline happens to continue this one's is taken in too; the shape rule and the
    /// readings' agreement still decide what it gives.
    static func joined(_ line: RecognizedLine, withLinesRightOf lines: [RecognizedLine]) -> RecognizedLine {
        var joined = line
        let b = line.baseline
        let slope = b.x1 > b.x0 ? Double(b.y1 - b.y0) / Double(b.x1 - b.x0) : 0
        // Its baseline, drawn on, passes within a third of the text's height of theirs.
        let neighbours = lines.filter { other in
            let expected = Double(b.y0) + slope * Double(other.baseline.x0 - b.x0)
            return other.box.left >= line.box.right - 2 && abs(Double(other.baseline.y0) - expected) <= line.textHeight / 3
        }.sorted { $0.box.left < $1.box.left }
        for other in neighbours {
            joined.text += " " + other.text
            joined.box = (joined.box.left, min(joined.box.top, other.box.top), max(joined.box.right, other.box.right),
                          max(joined.box.bottom, other.box.bottom))
        }
        if let last = neighbours.last {
            joined.baseline.x1 = last.box.right
            joined.baseline.y1 = b.y0 + Int((slope * Double(last.box.right - b.x0)).rounded())
        }
        return joined
    }

    /// The readings of one `ISBN` line: the page's (`printed`), then the line's own.
    private func judge(_ line: RecognizedLine, _ printed: [PrintedISBNLine], in image: LuminanceImage, turn: Int,
                       scale: Double, typical: Double, accepting prefixes: ISBNPrefixes) -> [Reading] {
        let (band, corners) = Self.band(of: line, in: image, textHeight: 40, typical: typical)
        let reread = engine.recognize(band, layout: .singleLine, whitelist: Self.whitelist).map(\.text).joined(separator: " ")
        let second = PrintedISBNLine.parse(reread, keywordSeen: true)
        // One ISBN per keyword: the n-th of the page's reading goes with the n-th of the line's.
        let count = max(printed.count, second.count)
        var readings: [Reading] = []
        for index in 0..<count {
            var candidates = [index < printed.count ? printed[index] : nil, index < second.count ? second[index] : nil]
            var verdicts = candidates.map { $0.map { judge($0, accepting: prefixes) } }
            var valid = verdicts.compactMap { $0?.isbn }
            if Set(valid).count != 1 || valid.count < 2 {
                // No two readings agree: a third look, at another scale.
                let (other, _) = Self.band(of: line, in: image, textHeight: 28, typical: typical)
                let third = PrintedISBNLine.parse(engine.recognize(other, layout: .singleLine, whitelist: Self.whitelist)
                    .map(\.text).joined(separator: " "), keywordSeen: true)
                candidates.append(index < third.count ? third[index] : nil)
                verdicts.append(candidates.last!.map { judge($0, accepting: prefixes) })
                valid = verdicts.compactMap { $0?.isbn }
            }
            let counts = Dictionary(valid.map { ($0, 1) }, uniquingKeysWith: +)
            let qualifier = printed.indices.contains(index) ? printed[index].qualifier : nil
            let digits = candidates.compactMap { $0?.digits }.first ?? ""
            let verdict: Verdict
            if let (isbn, n) = counts.max(by: { $0.value < $1.value }), n >= 2, counts.count == 1 {
                verdict = .accepted(isbn)
            } else if counts.count >= 2 {
                let read = counts.keys.map(\.isbn13).sorted().joined(separator: " and ")
                verdict = .rejected(Rejection(.ambiguous, "the printed line reads as \(read): take the photo again"))
            } else if let refusal = verdicts.compactMap({ $0?.rejection }).first {
                verdict = .rejected(refusal)
            } else if let isbn = valid.first {
                // One reading valid, the others found no ISBN at all there: not enough.
                verdict = .rejected(Rejection(.ambiguous, "only one reading of the printed line gives \(isbn.isbn13): take the photo again"))
            } else {
                continue
            }
            readings.append(Reading(verdict: verdict, digits: verdict.isbn?.isbn13 ?? digits, line: line.text, qualifier: qualifier,
                                    confidence: Int(line.confidence.rounded()), orientation: (360 - turn) % 360,
                                    polygon: corners.map { Self.upright($0, turn: turn, scale: scale, size: image) }))
        }
        return readings
    }

    /// The verdict on one reading's digits: the ISBN rules, then the range message (a valid
    /// ISBN in a range not defined for use is refused as ``RejectionReason/prefix``).
    private func judge(_ printed: PrintedISBNLine, accepting prefixes: ISBNPrefixes) -> Verdict {
        let verdict = ISBN.judge(typed: printed.digits, accepting: prefixes)
        guard let isbn = verdict.isbn else { return verdict }
        guard case .hyphenated = ranges.hyphenate(isbn.isbn13) else {
            return .rejected(Rejection(.prefix, "\(isbn.isbn13) lies in no range of the ISBN range message: not a printed ISBN"))
        }
        return verdict
    }
}

/// A ``PrintedISBNReader`` opened on its first use: for `--effort thorough`, where text is read
/// only on a photo without any barcode and the digits under a barcode only where its bars leave
/// it in doubt, so that a run whose photos all have a clear barcode never loads Tesseract. Where
/// Tesseract cannot be opened, it reads nothing.
public final class LazyPrintedISBNReader: PrintedISBNReading, PrintedDigitsWitness {
    private let ranges: RangeMessage
    private var opened: PrintedISBNReader??

    public init(ranges: RangeMessage = .bundled) { self.ranges = ranges }

    /// The reader, opened on the first call.
    private var reader: PrintedISBNReader? {
        if opened == nil { opened = .some(try? PrintedISBNReader(ranges: ranges)) }
        return opened ?? nil
    }

    public func readCodes(in image: LuminanceImage, accepting prefixes: ISBNPrefixes) -> [ReadCode] {
        reader?.readCodes(in: image, accepting: prefixes) ?? []
    }

    public func printedDigits(in image: LuminanceImage, quadrilateral: [Point]) -> String? {
        reader?.printedDigits(in: image, quadrilateral: quadrilateral)
    }
}
