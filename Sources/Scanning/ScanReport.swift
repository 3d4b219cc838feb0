// SPDX-License-Identifier: Apache-2.0
import ISBN

/// One EAN-13/EAN-8 symbol and the ISBN layer's verdict on it.
public struct ReadCode: Hashable, Sendable {
    public var symbol: Symbol
    public var verdict: Verdict
    /// For a reading refused as ``RejectionReason/misread`` of a code that was accepted at the
    /// same place: that code. Such a refusal is no problem of the photo (the barcode was read),
    /// so it is listed with `--all` and `--json` but not warned about. `nil` otherwise.
    public var misreadOf: String?
    /// A measurement independent of the decoders' edges supports this code at its place: the
    /// fit of the whole symbol read it, or the re-measurement of a reading's bars confirmed it.
    public var independentlyMeasured = false
    /// The digits printed under the barcode (its human-readable line), when they were read at
    /// this code's place as one more measurement (``PrintedDigitsWitness``, ``Arbiter``); `nil`
    /// when they were not read, or could not be.
    public var printedDigits: String?

    public init(symbol: Symbol, verdict: Verdict, misreadOf: String? = nil) {
        self.symbol = symbol
        self.verdict = verdict
        self.misreadOf = misreadOf
    }
}

/// Everything read from one image: symbols with add-ons attached, and for each the verdict.
///
/// Built from the raw symbols of one or more scans of the same image:
/// 1. add-ons (EAN-2/EAN-5) are attached to the nearest EAN-13 beside them (within one
///    barcode width); unpaired add-ons are dropped;
/// 2. readings are grouped by place and weighed by ``Arbiter``: repeated reads of the same
///    digits at one place collapse to one (highest quality); the code with clearly the most
///    evidence is judged by ``ISBN/judge(ean:)`` and its rivals are refused as
///    ``RejectionReason/misread``; without such a code every reading there is refused as
///    ``RejectionReason/ambiguous``.
public struct ScanReport: Sendable {
    /// Symbols in reading order (top to bottom, then left to right), each with its verdict.
    public var codes: [ReadCode]
    /// Barcode-like regions (``CandidateMap``) where no code was read: where to retake the photo.
    public var candidates: [Candidate] = []

    /// - Parameter recoveryEvidence: the support (``Arbiter``: agreeing readings, 3 for one the
    ///   fit confirmed) a code read only by recovery passes needs to be reported at all (1: every
    ///   reading counts).
    /// - Parameter candidates: barcode-like regions looked at; those that overlap no code read
    ///   are kept in ``candidates``.
    /// - Parameter prefixes: the GS1 prefixes accepted as ISBNs (978; 979 with `--accept 979`).
    public init(symbols raw: [Symbol], recoveryEvidence: Int = 1, candidates: [Candidate] = [],
                accepting prefixes: ISBNPrefixes = .only978) {
        self.init(symbols: raw, recoveryEvidence: recoveryEvidence, candidates: candidates, accepting: prefixes,
                  printedDigits: nil)
    }

    /// As ``init(symbols:recoveryEvidence:candidates:accepting:)``, with the digits printed under
    /// the barcodes read where the bars leave a place in doubt (``Arbiter/judge(_:recoveryEvidence:accepting:printedDigits:)``).
    init(symbols raw: [Symbol], recoveryEvidence: Int = 1, candidates: [Candidate] = [],
         accepting prefixes: ISBNPrefixes = .only978, printedDigits: PrintedDigitsReadings?) {
        codes = Arbiter.judge(ScanReport.attachAddOns(raw), recoveryEvidence: recoveryEvidence, accepting: prefixes,
                              printedDigits: printedDigits)
        let read = codes.map(\.symbol.box)
        self.candidates = candidates.filter { candidate in !read.contains { $0.intersection(candidate.rect) != nil } }
    }

    /// The first accepted code of each ISBN, in reading order (so each ISBN once, with the
    /// symbol it was read from).
    public var accepted: [ReadCode] {
        var seen = Set<ISBN>()
        return codes.filter { code in code.verdict.isbn.map { seen.insert($0).inserted } ?? false }
    }

    /// Accepted ISBNs, each once, in reading order.
    public var isbns: [ISBN] { accepted.compactMap(\.verdict.isbn) }

    /// Codes refused by the ISBN layer, with their reasons.
    public var rejected: [ReadCode] { codes.filter { $0.verdict.rejection != nil } }

    /// The refusals worth a warning: ``rejected`` without the misreads of a code accepted at the
    /// same place (``ReadCode/misreadOf``).
    public var problems: [ReadCode] { rejected.filter { $0.misreadOf == nil } }

    /// This report with what `floor` — the report the plan of a lower effort returned for the
    /// same image (``SearchPlan``) — decided at each of its places: a code accepted there, or
    /// refused for what it is (a product code, a bad check digit), not as a misread or as
    /// ambiguous. The stages after the lower plan may add places and settle the places it left
    /// open; passes that turn, smooth or re-scan the same pixels repeat a measurement, so however
    /// many of them read a rival, the place keeps `floor`'s verdicts (the rivals this report has
    /// there are refused as misreads of an ISBN `floor` accepted). A place is this report's when
    /// this report judged the decided code the same; or when another code there is supported by
    /// a measurement `floor` did not have (``ReadCode/independentlyMeasured``: the fit of the
    /// whole symbol, a confirming re-measurement); or, for a refused code, when this report reads
    /// a code with an ISBN prefix there (a product code may be the misread of a book).
    public func keeping(_ floor: ScanReport, accepting prefixes: ISBNPrefixes = .only978) -> ScanReport {
        func together(_ a: ReadCode, _ b: ReadCode) -> Bool {
            a.symbol.symbology == b.symbol.symbology && (a.symbol.overlaps(b.symbol) || b.symbol.overlaps(a.symbol))
        }
        var report = self
        for decided in floor.codes where decided.verdict.isbn != nil
            || ![.misread, .ambiguous].contains(decided.verdict.rejection?.reason) {
            let place = floor.codes.filter { together($0, decided) }
            let here = report.codes.filter { together($0, decided) }
            if here.contains(where: { $0.symbol.data == decided.symbol.data && $0.verdict == decided.verdict }) { continue }
            let known = Set(place.map(\.symbol.data))
            if here.contains(where: { !known.contains($0.symbol.data) && $0.independentlyMeasured }) { continue }
            if decided.verdict.isbn == nil, here.contains(where: { code in
                code.verdict.isbn != nil || code.symbol.data.hasPrefix("978")
                    || (prefixes == .with979 && code.symbol.data.hasPrefix("979"))
            }) {
                continue
            }
            let accepted = decided.verdict.isbn != nil ? decided.symbol.data : nil
            report.codes = report.codes.compactMap { code in
                guard together(code, decided) else { return code }
                if known.contains(code.symbol.data) { return nil }  // floor's own verdict, added below
                guard let accepted else { return code }
                var rival = code
                rival.verdict = .rejected(Rejection(.misread, "probable misread of \(accepted), which this barcode reads as "
                    + "at a lower effort; the further readings here bring no fit of its bars that reads otherwise"))
                rival.misreadOf = accepted
                return rival
            }
            report.codes += place
        }
        report.codes.sort(by: Self.readingOrder)
        return report
    }

    /// Top to bottom, then left to right (then by digits).
    static func readingOrder(_ a: ReadCode, _ b: ReadCode) -> Bool {
        let ba = a.symbol.box, bb = b.symbol.box
        return (ba.y, ba.x, a.symbol.data) < (bb.y, bb.x, b.symbol.data)
    }

    /// Attaches each add-on to the nearest EAN-13 it sits beside; drops the rest.
    static func attachAddOns(_ raw: [Symbol]) -> [Symbol] {
        var main = raw.filter { !$0.symbology.isAddOn }
        for addOn in raw where addOn.symbology.isAddOn {
            let centre = addOn.box.midpoint
            var best: (index: Int, distance: Double)?
            for (index, symbol) in main.enumerated() where symbol.symbology == .ean13 {
                let b = symbol.box
                let dx = max(Double(b.x) - centre.x, 0, centre.x - Double(b.lastX))
                let dy = max(Double(b.y) - centre.y, 0, centre.y - Double(b.lastY))
                let distance = (dx * dx + dy * dy).squareRoot()
                let reach = Double(max(b.width - 1, b.height - 1, 1))
                if distance <= reach, distance < (best?.distance ?? .infinity) { best = (index, distance) }
            }
            if let best, main[best.index].addOn == nil { main[best.index].addOn = addOn.data }
        }
        return main
    }
}

extension Symbol {
    /// Whether `self` and `other` are readings of the same barcode.
    ///
    /// Their boxes overlap by more than half of the smaller box; or they hold the same digits
    /// and their boxes touch; or they share the right half of their digits along the same
    /// stretch of bars; or — same digits, or digits that differ only in 1↔7 / 2↔8 — they span
    /// the same extent (80 % or more of the wider) along one axis and lie side by side along the
    /// other, less than a quarter of that extent apart (two bands of the same bars); or — same
    /// digits — they share a quarter or more of the longer box's length and lie less than half
    /// that length apart across it (lines across a slanted barcode); or one box
    /// is small (zbar marks one point per scan line) and lies within the other, grown by a
    /// quarter of its longer side. zbar's boxes of a straight barcode can be thin (a few scan
    /// lines), so each box is first grown to at least 8 pixels in each direction. Box corners
    /// are pixels of the same image.
    public func overlaps(_ other: Symbol) -> Bool {
        // Corner pixels (first and last column and row) of each box, grown.
        func grown(_ b: PixelRect) -> (Int, Int, Int, Int) {
            let padX = max(0, 8 - (b.width - 1)) / 2, padY = max(0, 8 - (b.height - 1)) / 2
            return (b.x - padX, b.y - padY, b.lastX + padX, b.lastY + padY)
        }
        let (ax0, ay0, ax1, ay1) = grown(box), (bx0, by0, bx1, by1) = grown(other.box)
        let ix = max(0, min(ax1, bx1) - max(ax0, bx0)), iy = max(0, min(ay1, by1) - max(ay0, by0))
        let areaA = (ax1 - ax0) * (ay1 - ay0), areaB = (bx1 - bx0) * (by1 - by0)
        let smaller = max(1, min(areaA, areaB))
        if ix * iy * 2 > smaller { return true }
        // The same digits in boxes that touch: zbar's boxes of one slanted barcode read along
        // rows and along columns cross each other without overlapping much.
        if data == other.data && ix > 0 && iy > 0 { return true }
        let (aw, ah, bw, bh) = (ax1 - ax0, ay1 - ay0, bx1 - bx0, by1 - by0)
        let gapY = max(0, max(ay0, by0) - min(ay1, by1)), gapX = max(0, max(ax0, bx0) - min(ax1, bx1))
        // Along the reading direction (the longer side of the longer box) and across it.
        let horizontal = max(aw, bw) >= max(ah, bh)
        let along = horizontal ? ix : iy, across = horizontal ? gapY : gapX
        let shorter = horizontal ? min(aw, bw) : min(ah, bh), longer = horizontal ? max(aw, bw) : max(ah, bh)
        // zbar decodes the two halves of an EAN apart: a misread of one half keeps the other.
        // Two readings that share their right half (6 digits and the check digit, which two
        // different books share by chance once in a million) and lie along the same stretch of
        // bars, less than that stretch apart across them, are two reads of one barcode.
        if symbology == other.symbology && data.count == other.data.count && data.count >= 8 && data != other.data
            && data.suffix(data.count / 2) == other.data.suffix(data.count / 2) {
            if along * 2 >= shorter && across <= longer { return true }
        }
        // Two reads of one barcode by different passes can cover different bands of its bars:
        // nearly the same extent along the bars' reading direction, side by side across it.
        // Only for the same digits, or digits that differ only where bar widths alone tell
        // them apart (1↔7, 2↔8: the misreads of a print with ink spread, which vary from band
        // to band): two different books stacked close together stay two books.
        guard data == other.data || Self.differOnlyInBarWidths(data, other.data) else { return false }
        if ix * 5 >= 4 * max(aw, bw) && gapY * 4 <= max(aw, bw) { return true }
        if iy * 5 >= 4 * max(ah, bh) && gapX * 4 <= max(ah, bh) { return true }
        // The same digits on lines across a slanted barcode: each line crosses the bars at another
        // place along them, so the boxes share only part of their length and lie side by side,
        // less than half that length apart (a photo of two copies of one book, stacked that close
        // or in one row, is not told apart: see README's limits).
        if data == other.data && along * 4 >= longer && across * 2 <= longer { return true }
        // zbar marks a symbol where its decode ends on each line; a pass with few lines gives a
        // box of one point. A small box whose centre lies within the other's box (grown by a
        // quarter of its longer side) is a read of the same bars.
        func contains(_ outer: (Int, Int, Int, Int), _ inner: (Int, Int, Int, Int)) -> Bool {
            let grow = max(outer.2 - outer.0, outer.3 - outer.1) / 4
            let cx = (inner.0 + inner.2) / 2, cy = (inner.1 + inner.3) / 2
            return cx >= outer.0 - grow && cx <= outer.2 + grow && cy >= outer.1 - grow && cy <= outer.3 + grow
        }
        let a = (ax0, ay0, ax1, ay1), b = (bx0, by0, bx1, by1)
        if max(aw, ah) * 2 <= max(bw, bh) { return contains(b, a) }
        if max(bw, bh) * 2 <= max(aw, ah) { return contains(a, b) }
        return false
    }

    /// Whether `a` and `b` have the same length and differ only in digits that share their
    /// edge-to-similar-edge distances (1↔7, 2↔8; GS1 General Specifications §5.2.1.2), at one
    /// position or more.
    public static func differOnlyInBarWidths(_ a: String, _ b: String) -> Bool {
        guard a.count == b.count, a != b else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard Set([x, y]) == ["1", "7"] || Set([x, y]) == ["2", "8"] else { return false }
        }
        return true
    }
}
