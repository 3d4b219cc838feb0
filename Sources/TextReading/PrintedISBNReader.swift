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
///    accepted when two readings give the same ISBN; when they do not, the line is read again at
///    other scales (``moreLooks``) until two agree. Two different valid ISBNs from one line, or a
///    single valid reading, are refused as ``RejectionReason/ambiguous``; a line whose readings
///    fail is refused with the reason of the first that does (`check-digit`…); a line that runs
///    to the photo's edge, with ``RejectionReason/length`` (its last digits may be cut off).
/// 5. Orientation: the page is read as it is, then turned 90°, 270° and 180° clockwise, until a
///    turn shows an `ISBN` line or reads as text (five words of three letters or more, on lines of
///    confidence 70 or more): a photo's EXIF orientation is applied before.
/// 6. Size: when no turn shows an `ISBN` line, a page whose lines are under 22 pixels tall (7 pt
///    at 150 dpi) is read once more at twice the size, in the turn that read most words; a page
///    where the layout analysis finds fewer than 3 lines (a few lines of large type, which it may
///    take for a picture) is read once more upright as one block of text (`PSM_SINGLE_BLOCK`).
/// 7. When all that reads no ISBN, the lines found from the shapes of their characters, in any
///    direction (``typeLines(in:)``, ``readTypeLines(_:photo:known:accepting:)``): the layout
///    analysis reads photos poorly (a line beside a barcode or a sticker, small type, a label
///    turned by any angle).
///
/// The work on one page is bounded by ``budget`` (pixels and lines handed to Tesseract, never
/// seconds); ``work`` says what the last page cost.
///
/// One per worker: it owns a Tesseract engine, which is not thread-safe.
public final class PrintedISBNReader: PrintedISBNReading {
    let engine: TesseractEngine
    private let ranges: RangeMessage
    /// The most work one page may cost (``TextBudget``).
    public let budget: TextBudget
    /// What ``read(_:accepting:)`` handed Tesseract for the last page read.
    public private(set) var work = TextWork()

    /// The text heights (pixels) of the looks at a line taken after the first two, one after
    /// another, while no two readings agree on an ISBN.
    static let moreLooks: [Double] = [28, 56, 34]

    /// The characters of the line re-read: what an ISBN line holds.
    static let whitelist = "0123456789XISBN-: C\u{00A5}E"

    /// Opens Tesseract (the first reader of the process loads the library).
    ///
    /// - Parameters:
    ///   - ranges: the range message whose ranges an ISBN read must lie in.
    ///   - budget: the most work one page may cost.
    /// - Throws: ``TextReadingError`` when libtesseract or its English data is missing.
    public init(ranges: RangeMessage = .bundled, budget: TextBudget = TextBudget()) throws(TextReadingError) {
        engine = try TesseractEngine()
        self.ranges = ranges
        self.budget = budget
    }

    /// `engine.recognize`, counted in ``work``; nothing once ``budget`` is spent (its lines, or
    /// its pixels in all), so that the budget, not the page, bounds the work.
    func recognize(_ image: LuminanceImage, layout: PageLayout, whitelist: String = "") -> [RecognizedLine] {
        let pixels = image.width * image.height
        guard work.pixels + pixels <= budget.pixels, layout != .singleLine || work.lines < budget.lines else {
            work.refused += 1
            return []
        }
        work.pixels += pixels
        if layout == .singleLine {
            work.lines += 1
        } else {
            work.pageLooks += 1
            work.largestPage = max(work.largestPage, pixels)
        }
        return engine.recognize(image, layout: layout, whitelist: whitelist)
    }

    /// `image` scaled down to at most `pixels` pixels (box filter by a whole factor, then bilinear
    /// for the rest), with the scale applied (1 when it fits as it is).
    static func fitted(_ image: LuminanceImage, pixels: Int) -> (image: LuminanceImage, scale: Double) {
        let count = image.width * image.height
        guard count > pixels, pixels > 0 else { return (image, 1) }
        let factor = Int((Double(count) / Double(pixels)).squareRoot())
        var small = factor >= 2 ? image.downscaled(by: factor) : image
        if small.width * small.height > pixels {
            small = small.upscaled(by: (Double(pixels) / Double(small.width * small.height)).squareRoot() * 0.999)
        }
        return (small, Double(small.width) / Double(image.width))
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
        /// Direction the line is read in, degrees clockwise from left-to-right: 0, 90, 180, 270 (the
        /// nearest of them for a line at another angle).
        public var orientation: Int
        /// The line's quadrilateral in pixels of the image read, clockwise from the top-left of
        /// the line as read.
        public var polygon: [Point]
    }

    /// The printed ISBNs of `image` (upright 8-bit luminance), in the order of the page read.
    public func read(_ image: LuminanceImage, accepting prefixes: ISBNPrefixes = .only978) -> [Reading] {
        work = TextWork()
        let flat = Self.evenedOut(image)
        let photo = Photo(left: 0, top: 0, right: Double(image.width), bottom: Double(image.height))
        var (readings, upright) = readWithLayout(flat, photo: photo, accepting: prefixes)
        // Where the layout analysis read no ISBN, the lines found from the characters' shapes, in
        // any direction (a label beside a barcode or under a sticker, small type, a tilted photo),
        // but those it read upright with confidence.
        if !readings.contains(where: { $0.verdict.isbn != nil }) {
            let (search, scale) = Self.fitted(flat, pixels: budget.typeLinePixels)
            let known = upright.filter { $0.confidence >= 60 }.map { line in
                var line = line
                line.box = (Int(Double(line.box.left) * scale), Int(Double(line.box.top) * scale),
                            Int((Double(line.box.right) * scale).rounded(.up)), Int((Double(line.box.bottom) * scale).rounded(.up)))
                return line
            }
            let found = readTypeLines(search, scale: scale, photo: photo, known: known, accepting: prefixes)
            if found.contains(where: { $0.verdict.isbn != nil }) || readings.isEmpty { readings = found }
        }
        return readings
    }

    /// The photo's extent, in its pixels: where a line can be seen whole.
    struct Photo {
        var left: Double, top: Double, right: Double, bottom: Double

        func contains(_ p: Point) -> Bool {
            Double(p.x) >= left && Double(p.x) <= right && Double(p.y) >= top && Double(p.y) <= bottom
        }
    }

    /// ``read(_:accepting:)`` of a page already evened out, with Tesseract's layout analysis; with
    /// the lines it found on the page as it is (not turned).
    private func readWithLayout(_ flat: LuminanceImage, photo: Photo, accepting prefixes: ISBNPrefixes) -> ([Reading], [RecognizedLine]) {
        var best: (turn: Int, lines: [RecognizedLine], words: Int)?
        var upright: [RecognizedLine] = []
        // A page over the budget's pixels is looked at scaled down; its upright lines are then
        // given in pixels of the page.
        let (page, scale) = Self.fitted(flat, pixels: budget.pagePixels)
        for turn in [0, 90, 270, 180] {
            let look = examine(Self.turned(page, clockwise: turn), turn: turn, scale: scale, photo: photo, accepting: prefixes)
            if turn == 0 {
                upright = look.lines.map { line in
                    var line = line
                    line.box = (Int(Double(line.box.left) / scale), Int(Double(line.box.top) / scale),
                                Int((Double(line.box.right) / scale).rounded(.up)), Int((Double(line.box.bottom) / scale).rounded(.up)))
                    return line
                }
            }
            if let readings = look.readings { return (readings, upright) }
            if look.words > best?.words ?? -1 { best = (turn, look.lines, look.words) }
            if look.words >= 5 { break }
        }
        // Type too small for Tesseract's layout analysis (lines under 22 pixels tall: 7 pt at
        // 150 dpi): one more look at the likeliest turn at twice the size. A page where it finds
        // hardly a line (a few lines of large type, taken for a picture): one look at the upright
        // page as a single block of text.
        guard let best else { return ([], upright) }
        let heights = best.lines.map(\.textHeight).sorted()
        // Both within the budget's pixels: the block at its own (smaller) bound, the larger
        // look at up to twice the size, not looked at when the page's bound leaves it no larger.
        if best.lines.count < 3 {
            let (block, blockScale) = Self.fitted(flat, pixels: budget.blockPixels)
            return (examine(block, turn: 0, scale: blockScale, layout: .block, photo: photo, accepting: prefixes).readings ?? [], upright)
        }
        guard heights[heights.count / 2] < 22 else { return ([], upright) }
        let larger = min(2, (Double(budget.pagePixels) / Double(flat.width * flat.height)).squareRoot())
        guard larger >= 1.25 else { return ([], upright) }
        let scaled = Self.turned(flat, clockwise: best.turn).upscaled(by: larger)
        return (examine(scaled, turn: best.turn, scale: Double(scaled.width) / Double(best.turn % 180 == 0 ? flat.width : flat.height),
                        photo: photo, accepting: prefixes).readings ?? [], upright)
    }

    /// One page reading of `image` (`turned` by `turn` clockwise and scaled by `scale` from the
    /// upright page): the readings of its `ISBN` lines, `nil` when it shows no such line; its
    /// lines; and how many words it read as text (five words of three letters or more, on
    /// lines of confidence 70 or more, mean the page was read the right way up).
    private func examine(_ image: LuminanceImage, turn: Int, scale: Double, layout: PageLayout = .page, photo: Photo,
                         accepting prefixes: ISBNPrefixes) -> (readings: [Reading]?, lines: [RecognizedLine], words: Int) {
        let lines = recognize(image, layout: layout)
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
            readings += judge(line, printed, in: image, typical: typical, orientation: (360 - turn) % 360,
                              toPage: { Self.upright($0, turn: turn, scale: scale, size: image) }, photo: photo, accepting: prefixes)
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
    ///
    /// - Parameters:
    ///   - orientation: the direction the line is read in, degrees clockwise (``Reading/orientation``).
    ///   - toPage: a point of `image` in pixels of the page read.
    ///   - photo: the page's extent: a line that runs off its edge may have lost digits (a photo
    ///     cropped through the line), so its readings are refused (``RejectionReason/length``).
    func judge(_ line: RecognizedLine, _ printed: [PrintedISBNLine], in image: LuminanceImage, typical: Double,
               orientation: Int, toPage: (Point2) -> Point, photo: Photo, accepting prefixes: ISBNPrefixes) -> [Reading] {
        let (band, corners) = Self.band(of: line, in: image, textHeight: 40, typical: typical)
        let cut = Self.runsOffThePhoto(line.text, corners: corners, toPage: toPage, photo: photo)
        let reread = recognize(band, layout: .singleLine, whitelist: Self.whitelist).map(\.text).joined(separator: " ")
        let second = PrintedISBNLine.parse(reread, keywordSeen: true)
        // One ISBN per keyword: the n-th of the page's reading goes with the n-th of the line's.
        let count = max(printed.count, second.count)
        var readings: [Reading] = []
        for index in 0..<count {
            var candidates = [index < printed.count ? printed[index] : nil, index < second.count ? second[index] : nil]
            var verdicts = candidates.map { $0.map { judge($0, accepting: prefixes) } }
            var valid = verdicts.compactMap { $0?.isbn }
            // No two readings agree (and no two give different ISBNs, which settles it): more
            // looks at other scales, until two agree.
            for height in Self.moreLooks where Set(valid).count < 2 && valid.count < 2 {
                let (other, _) = Self.band(of: line, in: image, textHeight: height, typical: typical)
                let more = PrintedISBNLine.parse(recognize(other, layout: .singleLine, whitelist: Self.whitelist)
                    .map(\.text).joined(separator: " "), keywordSeen: true)
                candidates.append(index < more.count ? more[index] : nil)
                verdicts.append(candidates.last!.map { judge($0, accepting: prefixes) })
                valid = verdicts.compactMap { $0?.isbn }
            }
            let counts = Dictionary(valid.map { ($0, 1) }, uniquingKeysWith: +)
            let qualifier = printed.indices.contains(index) ? printed[index].qualifier : nil
            let digits = candidates.compactMap { $0?.digits }.first ?? ""
            let verdict: Verdict
            if cut, !candidates.allSatisfy({ $0 == nil }) {
                let shown = candidates.compactMap { $0?.digits }.first ?? ""
                verdict = .rejected(Rejection(.length, "the printed line runs off the edge of the photo after \(shown): digits may be missing",
                                              remedy: .retakePhoto))
            } else if let (isbn, n) = counts.max(by: { $0.value < $1.value }), n >= 2, counts.count == 1 {
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
                                    confidence: Int(line.confidence.rounded()), orientation: orientation,
                                    polygon: corners.map(toPage)))
        }
        return readings
    }

    /// Whether the line whose band has `corners` (in the image read) ends within half a text
    /// height of the photo's edge, as a line the photo cut through does (a line that ends with a
    /// closing parenthesis, `(pbk.)`, ends there).
    static func runsOffThePhoto(_ text: String, corners: [Point2], toPage: (Point2) -> Point, photo: Photo) -> Bool {
        guard text.last(where: { !$0.isWhitespace }) != ")" else { return false }
        let (left, right) = (Point2(x: (corners[0].x + corners[3].x) / 2, y: (corners[0].y + corners[3].y) / 2),
                             Point2(x: (corners[1].x + corners[2].x) / 2, y: (corners[1].y + corners[2].y) / 2))
        let length = max(1, ((right.x - left.x) * (right.x - left.x) + (right.y - left.y) * (right.y - left.y)).squareRoot())
        let height = ((corners[2].x - corners[1].x) * (corners[2].x - corners[1].x)
                      + (corners[2].y - corners[1].y) * (corners[2].y - corners[1].y)).squareRoot() / 1.45
        let beyond = Point2(x: right.x + (right.x - left.x) / length * 0.5 * height, y: right.y + (right.y - left.y) / length * 0.5 * height)
        return !photo.contains(toPage(beyond))
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
