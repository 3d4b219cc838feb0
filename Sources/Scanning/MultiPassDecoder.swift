// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import ISBN

/// The coordinate in the full image of `v`, a pixel coordinate in a copy `factor` times smaller
/// (pixel centres line up: the centre of reduced pixel 0 is at (factor − 1) / 2).
func fromReduced(_ v: Double, by factor: Double) -> Double { (v + 0.5) * factor - 0.5 }

extension Symbol {
    /// The symbol with its polygon mapped through `transform` (pixel coordinates of the scanned
    /// image → of the original), as an axis-aligned quadrilateral clockwise from top-left.
    func mapped(_ transform: (Double, Double) -> (Double, Double)) -> Symbol {
        var symbol = self
        symbol.place = PixelRect(covering: polygon.map { transform(Double($0.x), Double($0.y)) })
        return symbol
    }
}

/// The Gaussian blur of the last image asked for, kept for the next pass that wants it.
final class SharedBlur: @unchecked Sendable {
    let sigma: Double
    /// The image blurred last (held, so that its buffer cannot be freed and another image's
    /// take its place), and its blur.
    private var last: (image: LuminanceImage, blur: LuminanceImage.Blur)?
    init(sigma: Double) { self.sigma = sigma }

    func blur(of image: LuminanceImage) -> LuminanceImage.Blur {
        if let last, last.image.buffer === image.buffer, last.image.width == image.width { return last.blur }
        let blur = image.gaussianBlurred(sigma: sigma)
        last = (image, blur)
        return blur
    }
}

/// The decoding strategy `scan`, batch and camera share: the executor of a ``SearchPlan``.
///
/// For each image it builds the plan of its ``effort`` (first look, barcode map, full scan, and
/// from `normal` on the recovery passes and the fit of the whole symbol, at `thorough` a recovery
/// of every line) and runs it in one loop (``decode(_:region:)``): each stage adds readings to
/// the search's state, and after each the ``Arbiter`` says whether every place is settled. When
/// the loop passes the last stage of a lower effort, it keeps the report that effort would have
/// returned, and the final report keeps what it decided (``ScanReport/keeping(_:accepting:)``):
/// a higher effort reads every code a lower one reads.
///
/// Misreads are worse than misses: zbar returns only check-digit-valid codes, every reading is
/// re-measured (``ReadingVerifier``), a code only recovery passes read needs
/// ``DecodingPolicy/confirmations`` agreeing readings (a code read by one pass only is looked at
/// again through that pass on a smoothed and on a lightened copy), and readings of one place that
/// disagree are refused as ``ISBN/RejectionReason/ambiguous`` unless one clearly wins.
///
/// An image file comes as an ``ImageSource`` (``decode(_:page:region:)``): the decoder then
/// decides itself whether a big JPEG gets its first look at half size, and whether it needs the
/// full-size image after it (that look ends the search when it settles it, or, at `fast` and
/// beyond ``DecodingPolicy/fullLookUpToPixels``, when it finds nothing barcode-like); decoded
/// pixels (a camera frame) go to ``decode(_:region:)``.
///
/// Every threshold of this strategy is a field of its ``policy``.
///
/// Owns one ``BarcodeScanner``: not thread-safe, one per worker.
public final class MultiPassDecoder {
    public let scanner: BarcodeScanner
    /// The effort, confirmations and size thresholds (``DecodingPolicy/confirmations`` raised to 1
    /// when under it).
    public let policy: DecodingPolicy
    /// ``DecodingPolicy/effort`` of ``policy``.
    public var effort: Effort { policy.effort }
    /// How many recovery passes must agree on a code: ``DecodingPolicy/confirmations`` of ``policy``.
    public var confirmations: Int { policy.confirmations }
    /// Reads the digits printed under an EAN-13 whose bars leave its place in doubt, for the
    /// ``Arbiter`` to weigh (``PrintedDigitsWitness``); `nil` (the default): the bars alone decide.
    /// It is asked once per such place and image, after the search: it changes the judgement,
    /// never which passes run.
    public var witness: (any PrintedDigitsWitness)?

    /// Codes whose re-measurement is known (``Symbol/verification``, places in pixels of the
    /// images decoded next): a main symbol that the first look or the full scan reads in the
    /// image itself (not a reduced or transformed copy) with the same symbology and digits, at a
    /// place that overlaps one of these, takes its verification instead of being measured again.
    /// The camera sets it to the codes it follows, confirmed and measured in earlier frames; empty
    /// by default.
    public var knownMeasurements: [Symbol] = []

    public init(scanner: BarcodeScanner, policy: DecodingPolicy) {
        self.scanner = scanner
        var policy = policy
        policy.confirmations = max(1, policy.confirmations)
        self.policy = policy
    }

    /// A decoder with the default ``DecodingPolicy`` but for `effort` and `confirmations`.
    public convenience init(scanner: BarcodeScanner, effort: Effort = .normal, confirmations: Int = 2) {
        self.init(scanner: scanner, policy: DecodingPolicy(effort: effort, confirmations: confirmations))
    }

    /// The cheap first look at an image, which finds most barcodes in photos: sparse zbar scans,
    /// rows first (a book held upright has vertical bars, read along rows), then columns, every
    /// n-th line (n from ``DecodingPolicy/firstLookLines``); and when `image` is a reduced copy
    /// (`scale` > 1: a JPEG decoded at half size, or a big photo halved), a scan of every line.
    ///
    /// `image` is the picture at 1/`scale` of its size; polygons come back in full-size pixels.
    /// - Returns: the symbols, if an EAN-13 or EAN-8 is among them; else `nil`.
    public func firstLook(_ image: LuminanceImage, region: RegionOfInterest = .full, scale: Int = 1,
                          everyLine: Bool = true) -> [Symbol]? {
        look(image, region: region, scale: scale, everyLine: everyLine).symbols
    }

    /// What ``firstLook(_:region:scale:everyLine:)`` found: the symbols, if an EAN-13 or EAN-8
    /// is among them; else, when it made the map, where a barcode may be (full-size pixels).
    struct Look {
        var symbols: [Symbol]?
        var candidates: [Candidate]?
    }

    /// ``firstLook(_:region:scale:everyLine:)``, whose scan of every line of a reduced copy
    /// covers only the barcode-like regions (``CandidateMap``) — none when there are none.
    func look(_ image: LuminanceImage, region: RegionOfInterest = .full, scale: Int = 1, everyLine: Bool = true) -> Look {
        scanner.reset()  // the same answer for an image whatever was scanned before it
        let rect = region.pixelRect(imageWidth: image.width, imageHeight: image.height)
        let density = policy.firstLookStep(width: rect.width, height: rect.height)
        let name: PassName = scale > 1 ? .preview : .full
        let factor = Double(scale)
        func found(_ symbols: [Symbol]) -> [Symbol]? {
            guard symbols.contains(where: { !$0.symbology.isAddOn }) else { return nil }
            let verified = scale == 1 ? withKnownMeasurements(symbols) : symbols
            let measured = Self.verified(verified, in: image)
            return scale == 1 ? measured : measured.map { $0.mapped { (fromReduced($0, by: factor), fromReduced($1, by: factor)) } }
        }
        if density > 1 {
            for look in [(density, 0), (0, density)] {
                if let symbols = found(scanner.scan(image, pixels: rect, pass: name, rows: look.0, columns: look.1)) {
                    return Look(symbols: symbols)
                }
            }
        }
        guard scale > 1 && everyLine else { return Look() }
        guard CandidateMap.canMap(rect) else { return Look(symbols: found(scanner.scan(image, pixels: rect, pass: name, density: 1))) }
        let candidates = CandidateMap.find(in: image, within: rect)
        for (area, _) in Self.areas(candidates, within: rect, maximum: policy.maximumAreas, margin: policy.areaMargin) {
            if let symbols = found(scanner.scan(image, pixels: area, pass: name, density: 1)) {
                return Look(symbols: symbols, candidates: candidates.map { $0.scaled(by: scale) })
            }
        }
        return Look(candidates: candidates.map { $0.scaled(by: scale) })
    }

    /// `symbols` (pixels of the image decoded) with the verification of the
    /// ``knownMeasurements`` they match.
    func withKnownMeasurements(_ symbols: [Symbol]) -> [Symbol] {
        guard !knownMeasurements.isEmpty else { return symbols }
        return symbols.map { symbol in
            guard !symbol.symbology.isAddOn, symbol.verification == nil,
                  let known = knownMeasurements.first(where: { $0.data == symbol.data && $0.symbology == symbol.symbology
                      && $0.overlaps(symbol) }) else { return symbol }
            var copy = symbol
            copy.verification = known.verification
            return copy
        }
    }

    /// `symbols` with the ``Symbol/verification`` of each main symbol (``ReadingVerifier``)
    /// in `image`, the image they were read in (polygons in its pixels).
    static func verified(_ symbols: [Symbol], in image: LuminanceImage) -> [Symbol] {
        symbols.map { symbol in
            guard !symbol.symbology.isAddOn, symbol.verification == nil else { return symbol }
            var checked = symbol
            checked.verification = ReadingVerifier.verify(symbol, in: image)
            return checked
        }
    }

    /// Scans `region` of the upright `image` and judges every code, following the
    /// ``SearchPlan`` of ``effort``: the first look (on a halved copy when the region is over
    /// ``DecodingPolicy/halfSizeAbovePixels``), the map of barcode-like regions, one zbar scan of
    /// every line around them, and, unless `effort` is ``Effort/fast``, the recovery passes and
    /// the fit of the symbol.
    ///
    /// For decoded pixels (a camera frame, a test picture); an image file goes through
    /// ``decode(_:page:region:)``, which may look at a JPEG at half size first.
    ///
    /// - Parameters:
    ///   - image: the upright picture, at full size.
    ///   - region: the part scanned (normalized to `image`); polygons come back in pixels of
    ///     the whole `image`, clockwise from top-left.
    public func decode(_ image: LuminanceImage, region: RegionOfInterest = .full) -> ScanReport {
        decode(image, region: region, firstLookDone: false)
    }

    /// The camera's spare-time search (``SearchPlan/spareTime(region:policy:)``) of an image whose
    /// cheap scan read nothing and whose map found `candidates` (pixels of `image`, most
    /// barcode-like first): the full scan of the areas around them, the symbol fit, then the
    /// recovery passes, judged as ``Effort/normal`` judges them.
    public func decode(_ image: LuminanceImage, around candidates: [Candidate]) -> ScanReport {
        let rect = RegionOfInterest.full.pixelRect(imageWidth: image.width, imageHeight: image.height)
        var search = Search(image: image, region: .full, rect: rect, readings: [], candidates: candidates)
        search.printedDigits = witness.map { PrintedDigitsReadings(witness: $0, image: image) }
        return execute(SearchPlan.spareTime(region: rect, policy: policy), search)
    }

    /// ``decode(_:region:)``, after a look at a reduced copy when `firstLookDone`: the loop that
    /// runs the plan's stages until the ``Arbiter`` says the result is settled (or a stage finds
    /// there is nothing more to search).
    ///
    /// - Parameters:
    ///   - firstLookDone: ``look(_:region:scale:everyLine:)`` already ran on a reduced copy of
    ///     this image and it did not settle it (``decode(_:page:region:)`` does so with a JPEG
    ///     decoded at half size).
    ///   - earlier: what that look read but could not confirm (measured again at full size).
    ///   - given: where a barcode may be, when that look made the map (full-size pixels).
    ///   - mapInFull: a map of a half-size copy found nothing: the map is made at full size.
    func decode(_ image: LuminanceImage, region: RegionOfInterest, firstLookDone: Bool,
                earlier: [Symbol] = [], candidates given: [Candidate]? = nil, mapInFull: Bool = false) -> ScanReport {
        let rect = region.pixelRect(imageWidth: image.width, imageHeight: image.height)
        let plan = SearchPlan(effort: effort, region: rect, firstLookDone: firstLookDone, policy: policy)
        var search = Search(image: image, region: region, rect: rect, readings: earlier, candidates: given)
        search.mapInFull = mapInFull
        search.printedDigits = witness.map { PrintedDigitsReadings(witness: $0, image: image) }
        // What a reduced look read but could not confirm is measured again at full size.
        search.remeasureReduced()
        return execute(plan, search)
    }

    /// Runs `plan`'s stages on `search` until one ends the search, and returns its report, which
    /// keeps what the stages of each lower effort returned.
    func execute(_ plan: SearchPlan, _ search: Search) -> ScanReport {
        var search = search
        // What the plan of each lower effort returns at the end of its stages, which the stages
        // after it may add to but not take away.
        var floor: ScanReport?
        var ended: ScanReport?
        for (index, stage) in plan.stages.enumerated() {
            if index > 0, plan.stages[index - 1].effort != stage.effort {
                let below = search.report(after: plan.stages[index - 1].effort, policy: policy)
                floor = floor.map { below.keeping($0, accepting: policy.accepting) } ?? below
            }
            if let end = run(stage, &search) { ended = end; break }
        }
        let report = ended ?? search.report(after: plan.stages.last?.effort ?? effort, policy: policy)
        return floor.map { report.keeping($0, accepting: policy.accepting) } ?? report
    }

    /// The state of one image's search: what was read, where a barcode may be, which areas are
    /// searched, and which passes already ran where.
    struct Search {
        let image: LuminanceImage
        let region: RegionOfInterest
        /// `region` in pixels of `image`.
        let rect: PixelRect
        var readings: [Symbol]
        /// Where a barcode may be (full-size pixels), once mapped (or given by a reduced look).
        var candidates: [Candidate]?
        /// The whole image at half size, when the first look made it.
        var halved: LuminanceImage?
        /// The whole image at half size made after the first look (``halfSize()``), when the
        /// first look made none: the map's copy, which the coarse fit takes again.
        private(set) var halfSizeCopy: LuminanceImage?
        /// The areas the full scan and the recovery passes search, and the most barcode-like
        /// region of each.
        var areas: [(rect: PixelRect, looksLike: Candidate?)] = []
        /// The areas are around barcode-like regions (not the whole region).
        var focused = false
        /// The areas are around the barcode-like regions that no code read and settled covers
        /// (other books' places, ``Arbiter/unsettled(_:by:minimumEvidence:accepting:)``), the
        /// regions still unread in ``looked``.
        var otherPlaces = false
        /// Barcode-like regions looked at where nothing was read (for ``ScanReport/candidates``).
        var looked: [Candidate] = []
        /// What the recovery passes read (judged with the policy's ``DecodingPolicy/confirmations``).
        var found: [Symbol] = []
        /// The first passes read a code, settled with one piece of evidence: no recovery.
        var settledByFirstPasses = false
        /// Passes run: (area, pass, lines), so that none runs twice on the same pixels.
        var ran: Set<String> = []

        /// The map found nothing barcode-like where lines were already scanned across the whole
        /// region (by the first look, or by the full scan of a region too small for its sparse
        /// lines): the full scan, the recovery passes and the fit have nothing to search (only
        /// the coarser map may still find something).
        var nothingBarcodeLike = false

        /// The first look ran here (not on a reduced copy before the search).
        var firstLookRan = false
        /// The map is made at this image's own scale whatever its size: a half-size map of the
        /// same photo saw nothing (``decode(_:page:region:)``).
        var mapInFull = false
        /// The digits printed under the barcodes, read where the bars leave a place in doubt
        /// (``MultiPassDecoder/witness``); `nil`: not read.
        var printedDigits: PrintedDigitsReadings?

        init(image: LuminanceImage, region: RegionOfInterest, rect: PixelRect, readings: [Symbol], candidates: [Candidate]?) {
            self.image = image
            self.region = region
            self.rect = rect
            self.readings = readings
            self.candidates = candidates
        }

        var all: [Symbol] { readings + found }

        /// The whole image at half size: the first look's (``halved``), else made once, when
        /// first asked for (by the map of a region of a megapixel or more, then by the coarse fit
        /// where nothing was read).
        mutating func halfSize() -> LuminanceImage {
            if let copy = halved ?? halfSizeCopy { return copy }
            let copy = image.downscaled(by: 2)
            halfSizeCopy = copy
            return copy
        }

        var nothingRead: Bool { !readings.contains { !$0.symbology.isAddOn } }

        /// What a reduced look read but could not confirm, measured again at full size.
        mutating func remeasureReduced() {
            readings = readings.map { symbol in
                guard symbol.pass == .preview, !symbol.symbology.isAddOn, Arbiter.weight(symbol) != 3 else { return symbol }
                var again = symbol
                again.verification = ReadingVerifier.verify(symbol, in: image)
                return again
            }
        }

        /// The report the plan of `effort` returns when its last stage has run.
        func report(after effort: Effort, policy: DecodingPolicy) -> ScanReport {
            effort == .fast || settledByFirstPasses
                ? judged(all, candidates: looked, accepting: policy.accepting)
                : judged(all, recoveryEvidence: policy.confirmations, candidates: looked, accepting: policy.accepting)
        }

        /// The report on `symbols`, read in this search's image: the ``Arbiter``'s judgement, with
        /// the printed digits where ``printedDigits`` reads them.
        func judged(_ symbols: [Symbol], recoveryEvidence: Int = 1, candidates: [Candidate] = [],
                    accepting prefixes: ISBNPrefixes) -> ScanReport {
            ScanReport(symbols: symbols, recoveryEvidence: recoveryEvidence, candidates: candidates, accepting: prefixes,
                       printedDigits: printedDigits)
        }
    }

    /// Runs one stage. Returns the report when the search ends with it (settled, or nothing
    /// more to search), else `nil`.
    func run(_ stage: SearchStage, _ search: inout Search) -> ScanReport? {
        let accepting = policy.accepting
        switch stage.kind {
        case .firstLook:
            let big = search.rect.width * search.rect.height > policy.halfSizeAbovePixels
            if big { search.halved = search.image.downscaled(by: 2) }
            let first = look(search.halved ?? search.image, region: search.region, scale: big ? 2 : 1)
            search.firstLookRan = true
            search.readings += first.symbols ?? []
            search.remeasureReduced()
            search.candidates = search.candidates ?? first.candidates
            // What the first look confirmed ends the search only where nothing else in the picture
            // looks like a barcode: the map (next) says where other books may be.
            if Arbiter.isConfirmed(search.readings), !CandidateMap.canMap(search.rect) {
                return search.judged(search.readings, accepting: accepting)
            }
        case .map:
            if search.candidates == nil, CandidateMap.canMap(search.rect) { search.candidates = map(&search) }
            // Codes read and settled: the barcode-like regions that none of them covers are other
            // books' places, searched on their own; none left, and the search ends.
            if !search.nothingRead {
                let others = otherPlaces(search)
                if others.isEmpty {
                    if Arbiter.isConfirmed(search.readings) { return search.judged(search.readings, accepting: accepting) }
                } else if Arbiter.isSettled(search.readings, minimumEvidence: 1, accepting: accepting) {
                    keep(to: others, &search)
                    return nil
                }
            }
            // Nothing barcode-like after a first look that scanned lines across the whole region
            // (every line of a half-size copy, or every n-th row and column): no scan of every line
            // at full size, no recovery and no fit; only the coarse fit may still find something.
            let sparseLookRan = search.firstLookRan && policy.firstLookStep(width: search.rect.width, height: search.rect.height) > 1
            if search.candidates?.isEmpty == true, search.halved != nil || sparseLookRan, search.nothingRead {
                search.nothingBarcodeLike = true
                return nil
            }
            // Where nothing was read and something looks like a barcode, the full scan and the
            // recovery passes look there only: at each barcode-like region (most barcode-like first,
            // with a margin of half its size), unless together they cover half the region or more.
            search.areas = [(search.rect, nil)]
            if let candidates = search.candidates, !candidates.isEmpty, search.nothingRead {
                search.looked = candidates
                search.areas = [(search.rect, candidates[0])]
                if let around = focusedAreas(candidates, within: search.rect) {
                    search.areas = around
                    search.focused = true
                }
            }
        case .fullScan:
            guard !search.nothingBarcodeLike else { return nil }
            // Around other books' places, every place is scanned: what one settles says nothing of the next.
            scanEveryLine(&search, untilConfirmed: !search.otherPlaces)
            // What the scan around the first regions read settles them: the regions it leaves are
            // other books' places, scanned in turn.
            if !search.otherPlaces, !search.nothingRead, Arbiter.isSettled(search.readings, minimumEvidence: 1, accepting: accepting) {
                let others = otherPlaces(search)
                if !others.isEmpty {
                    keep(to: others, &search)
                    scanEveryLine(&search, untilConfirmed: false)
                }
            }
            if search.otherPlaces {
                search.looked = Arbiter.unsettled(search.looked, by: search.readings, minimumEvidence: 1, accepting: accepting)
            } else if !search.nothingRead {
                search.looked = []
            }
            if Arbiter.isConfirmed(search.readings), search.looked.isEmpty || !search.otherPlaces {
                return search.judged(search.readings, candidates: search.looked, accepting: accepting)
            }
            // Nothing read and nothing barcode-like (a region small enough that its first look
            // scanned no lines, so that the map's verdict waited for this scan of every line): as
            // after a sparse look, only the coarse fit is left.
            if search.nothingRead && search.looked.isEmpty && search.candidates != nil {
                search.nothingBarcodeLike = true
                return nil
            }
            // A code read and settled by the first passes alone needs no recovery; a refused code
            // or a reading the fit could not confirm does (an ISBN at the same place supersedes a
            // refused misread of it).
            search.settledByFirstPasses = Arbiter.isSettled(search.readings, minimumEvidence: 1, accepting: accepting)
                && !search.readings.contains { if case .contradicted? = $0.verification { true } else { false } }
                && !(search.otherPlaces && !search.looked.isEmpty)
        case .recovery:
            guard !search.settledByFirstPasses, !search.nothingBarcodeLike else { return nil }
            // After the fit, what it settled needs no passes.
            if stage.afterFit, !search.all.isEmpty,
               Arbiter.isSettled(search.all, minimumEvidence: confirmations, accepting: accepting) { return nil }
            if stage.effort == .normal, search.nothingRead { search.found += quietZoneScan(search) }
            recover(&search, stage: stage)
        case .coarseFit:
            guard search.all.allSatisfy(\.symbology.isAddOn) else { return nil }
            search.found += coarseFit(&search)
        case .symbolFit:
            guard !search.nothingBarcodeLike else { return nil }
            if search.settledByFirstPasses {
                // A code the fit could not confirm, read by one pass on a barcode-like region, may be
                // zbar's reading of a blurred symbol: the structure fitted to the region has the last word.
                let unconfirmed = search.readings.contains { !$0.symbology.isAddOn && Arbiter.weight($0) < 3 }
                let fitted = unconfirmed ? fit(&search, middle: false) { !$0.isEmpty } : []
                return search.judged(search.readings + fitted, accepting: accepting)
            }
            // Still unsettled: fit the symbol's structure to profiles across each barcode-like region
            // (out-of-focus and tiny barcodes, which no pass reads); and where a product code no
            // width measurement confirmed was read, which a blurred ISBN's misread looks like.
            if !Arbiter.isSettled(search.all, minimumEvidence: confirmations, accepting: accepting)
                || Arbiter.hasUnmeasuredProductCode(search.all) {
                let before = search.all
                search.found += fit(&search, middle: before.isEmpty) { Arbiter.isSettled(before + $0, minimumEvidence: confirmations, accepting: accepting) }
            }
            // Other books' places still unread: each is fitted on its own, until it is settled.
            if search.otherPlaces {
                let open = Arbiter.unsettled(search.looked, by: search.all, minimumEvidence: confirmations, accepting: accepting)
                for region in open.prefix(max(0, policy.maximumPlaces)) where region.isStrong {
                    search.found += Self.templateSymbols(search.image, around: region, policy: policy, middle: false)
                }
            }
        }
        return nil
    }

    /// zbar on every line of each of the search's areas, the readings re-measured; with
    /// `untilConfirmed`, until every place read is confirmed (``Arbiter/isConfirmed(_:)``).
    func scanEveryLine(_ search: inout Search, untilConfirmed: Bool) {
        for (area, _) in search.areas {
            let read = withKnownMeasurements(scanner.scan(search.image, pixels: area, pass: .full, density: 1))
            search.readings += Self.verified(read, in: search.image)
            if untilConfirmed, Arbiter.isConfirmed(search.readings) { break }
        }
    }

    /// The barcode-like regions of the search that no code it read and settled covers
    /// (``Arbiter/unsettled(_:by:minimumEvidence:accepting:)``): other books' places, at most
    /// ``DecodingPolicy/maximumPlaces`` of them, the most barcode-like first.
    func otherPlaces(_ search: Search) -> [Candidate] {
        Array(Arbiter.unsettled(search.candidates ?? [], by: search.readings, minimumEvidence: 1, accepting: policy.accepting)
            .prefix(max(0, policy.maximumPlaces)))
    }

    /// Keeps the rest of the search to the areas around `others` (``otherPlaces(_:)``), each
    /// searched while its region is unsettled.
    func keep(to others: [Candidate], _ search: inout Search) {
        search.looked = others
        search.areas = Self.areas(others, within: search.rect, maximum: policy.maximumPlaces, margin: policy.areaMargin)
        search.focused = true
        search.otherPlaces = true
    }

    /// The defocused map (``CandidateMap/find(in:within:scale:defocused:)``) and the symbol fit,
    /// for an image where nothing at all was read: first at the map's scale (half size where
    /// ``mapsAtHalfSize(_:)``, even when a half-size map that saw nothing was followed by one in
    /// full), then on copies at a half and a quarter of that scale.
    /// A defocus that leaves only the wide bars shows too few edges, too far apart, for the
    /// map's gates; at the map's scale the defocused map's gates still see such a symbol where
    /// its blocks hold together. Where the blur spreads each edge over several pixels, too little
    /// gradient is left in each block, and a symbol of large modules is seen in pieces, each too
    /// short for the fit, cut apart by blocks inside its wide bars and spaces; each halving
    /// doubles the gradient and the modules a block spans (the map's 16-pixel blocks span 4
    /// modules of a symbol of 4 pixels per module in the map's image, 16 at a quarter of its
    /// scale). At the quarter scale only a region whose bars' length the map measured
    /// (``Candidate/edgeSpacing``: its edges are far enough apart and its lines show enough of
    /// them) is fitted: finer edges are seen by the finer looks.
    /// The fit reads each region found in the full-size image, then, if that reads nothing, in
    /// the copy it was found in (a reduced copy's modules are over a pixel when they were over
    /// two, and its blur spans half as many samples). Up to ``DecodingPolicy/maximumAreas``
    /// regions are fitted per look, most barcode-like first, not counting those passed over:
    /// regions of sharp edges (type; unless strongly barcode-like), regions the fit already
    /// searched, and a region that is one already fitted in vain at a finer look (the same
    /// place to 4/5 of their union, the same direction to 10°).
    func coarseFit(_ search: inout Search) -> [Symbol] {
        let mapFactor = mapsAtHalfSize(search) ? 2 : 1, factor = 2 * mapFactor
        let rect = search.rect.reduced(by: factor)
        guard CandidateMap.canMap(search.rect.reduced(by: mapFactor)) else { return [] }
        let half = search.halfSize()
        let mapped = mapFactor == 2 ? half : search.image
        let reduced = factor == 4 ? half.downscaled(by: 2) : half
        // The regions the fit already searched at the map's scale (and read nothing in): a
        // defocused map's region mostly inside them is the same region again.
        let searched = (search.candidates ?? []).prefix(max(0, policy.maximumAreas)).filter { !$0.hasSharpEdges || $0.isStrong }
        func new(_ candidate: Candidate) -> Bool {
            let r = candidate.rect
            let covered = searched.reduce(0) { sum, c in sum + c.rect.commonArea(r) }
            return covered * 5 < r.width * r.height * 3
        }
        var unread: [Candidate] = []
        func fittedBefore(_ candidate: Candidate) -> Bool {
            let r = candidate.rect
            return unread.contains { old in
                let common = old.rect.commonArea(r)
                let union = old.rect.width * old.rect.height + r.width * r.height - common
                return common * 5 >= union * 4 && CandidateMap.turn(old.angle, candidate.angle) < 10
            }
        }
        // A region too small to map at a smaller scale is looked at at the larger ones only.
        var looks: [(image: LuminanceImage, area: PixelRect, scale: Int)] = [(mapped, search.rect.reduced(by: mapFactor), mapFactor)]
        if CandidateMap.canMap(rect) { looks.append((reduced, rect, factor)) }
        if CandidateMap.canMap(rect.reduced(by: 2)) { looks.append((reduced.downscaled(by: 2), rect.reduced(by: 2), 2 * factor)) }
        let coarsest = 2 * factor
        var fitted: [Symbol] = []
        for (image, area, scale) in looks {
            var taken = 0
            for found in CandidateMap.find(in: image, within: area, defocused: true) {
                guard taken < policy.maximumAreas else { break }
                let candidate = found.scaled(by: scale)
                guard !found.hasSharpEdges || found.isStrong, new(candidate), !fittedBefore(candidate),
                      scale < coarsest || found.edgeSpacing != nil else { continue }
                taken += 1
                var read = Self.templateSymbols(search.image, around: candidate, policy: policy)
                if read.isEmpty && scale > 1 {
                    read = Self.templateSymbols(image, around: found, policy: policy).map { symbol in
                        var symbol = symbol
                        symbol.place = candidate.rect
                        return symbol
                    }
                }
                // A region the fit cannot read either is where to retake the photo.
                if read.isEmpty {
                    search.looked.append(candidate)
                    unread.append(candidate)
                }
                fitted += read
                if Arbiter.isSettled(fitted, minimumEvidence: confirmations, accepting: policy.accepting) { return fitted }
            }
        }
        return fitted
    }

    /// A missing quiet zone is evidence lowered, not the end of the attempt: an area whose
    /// barcode-like region reaches the edge of the region of interest where its quiet zone should
    /// be (left or right of upright bars, above or below bars lying flat; or, in a region too small
    /// to map, the whole region) is scanned again with a border of its paper's grey on both ends
    /// of that axis, 12 % of the area's extent (at least an EAN-13's 11 modules, as the area is
    /// wider than the symbol), halved first when over ``DecodingPolicy/halfSizeAbovePixels``.
    /// Its readings are recovery readings (``PassName/quietZone``), judged with the evidence the
    /// policy's ``DecodingPolicy/confirmations`` ask.
    func quietZoneScan(_ search: Search) -> [Symbol] {
        let rect = search.rect
        var symbols: [Symbol] = []
        for (area, candidate) in search.areas {
            var across = (x: false, y: false)
            if let candidate {
                let r = candidate.rect, reach = max(4, min(r.width, r.height) / 8)
                let upright = CandidateMap.turn(candidate.angle, 0) < 15, flat = CandidateMap.turn(candidate.angle, 90) < 15
                if !flat { across.x = r.x - rect.x <= reach || rect.x + rect.width - (r.x + r.width) <= reach }
                if !upright { across.y = r.y - rect.y <= reach || rect.y + rect.height - (r.y + r.height) <= reach }
            } else if search.candidates == nil || !CandidateMap.canMap(rect) {
                across = (true, true)
            }
            guard across.x || across.y else { continue }
            let factor = area.width * area.height > policy.halfSizeAbovePixels ? 2 : 1
            let crop = search.image.cropped(x: area.x, y: area.y, width: area.width, height: area.height).downscaled(by: factor)
            let mx = across.x ? max(8, crop.width * 12 / 100) : 0, my = across.y ? max(8, crop.height * 12 / 100) : 0
            let padded = crop.padded(x: mx, y: my, with: crop.percentile(0.9))
            let found = scanner.scan(padded, pass: .quietZone, density: 1)
            symbols += Self.verified(found, in: padded).map { symbol in
                symbol.mapped { u, v in
                    let x = min(max(u - Double(mx), 0), Double(crop.width - 1)), y = min(max(v - Double(my), 0), Double(crop.height - 1))
                    return (fromReduced(x, by: Double(factor)) + Double(area.x), fromReduced(y, by: Double(factor)) + Double(area.y))
                }
            }
        }
        return symbols
    }

    /// The map of barcode-like regions of the search's region.
    func map(_ search: inout Search) -> [Candidate] {
        let rect = search.rect
        guard CandidateMap.canMap(rect) else { return [] }
        // From ``DecodingPolicy/mapAtHalfSizeAbovePixels`` on, the map is made at half size, as
        // for a JPEG's half-size look: averaging 2×2 pixels quiets sensor noise, which breaks up
        // the edges of bars.
        if mapsAtHalfSize(search) {
            let found = CandidateMap.find(in: search.halfSize(), within: rect.reduced(by: 2), scale: 2)
            // Halving averages bars of under 2.5 pixels to grey: beyond `fast`, a region of up to
            // ``DecodingPolicy/fullLookUpToPixels`` the half-size map saw nothing in is mapped in
            // full as well, as a JPEG's half-size look is followed by a full one. Only after a
            // sparse first look, where `fast` ends on an empty map: after one of every line,
            // `fast` scans the whole region again, and regions the full map found would narrow
            // that scan at `normal`.
            let sparse = search.halved != nil
                || (search.firstLookRan && policy.firstLookStep(width: rect.width, height: rect.height) > 1)
            guard found.isEmpty, effort != .fast, sparse, search.nothingRead, rect.width * rect.height <= policy.fullLookUpToPixels
            else { return found }
        }
        return CandidateMap.find(in: search.image, within: rect)
    }

    /// Whether the map of `search` is made at half size: after a half-size first look, or for a
    /// region of ``DecodingPolicy/mapAtHalfSizeAbovePixels`` or more — unless a half-size map of
    /// the same photo already saw nothing (``Search/mapInFull``).
    func mapsAtHalfSize(_ search: Search) -> Bool {
        !search.mapInFull && (search.halved != nil || search.rect.width * search.rect.height >= policy.mapAtHalfSizeAbovePixels)
    }

    /// The fit of the symbol's structure (``templateSymbols(_:around:policy:)``) on each
    /// barcode-like region in turn, until `done` says what it read is enough. Not on a region
    /// with sharp edges (``Candidate/hasSharpEdges``): the fit is made for defocused and
    /// too-fine bars, and what the passes leave unread with sharp edges is type. `middle`: a
    /// region's middle lines may be read on their own (``EANTemplateDecoder/readings(in:around:margin:error:light:middle:registers:)``),
    /// asked only where nothing at all was read: it is one more fit on every bar-like region, and
    /// where a code was read the region that holds it is known. The lines registered to the bars
    /// are read whatever `middle` (``DecodingPolicy/registersBars``): a pass's misread product code,
    /// which turns `middle` off, is where a blurred ISBN is read wrong. Then, where that is not enough,
    /// on the regions that look like two pieces of one symbol, joined (``joinedPieces(_:)``).
    func fit(_ search: inout Search, middle: Bool, until done: ([Symbol]) -> Bool) -> [Symbol] {
        if search.candidates == nil { search.candidates = map(&search) }
        var fitted: [Symbol] = []
        let regions = (search.candidates ?? []).prefix(max(0, policy.maximumAreas)).filter { !$0.hasSharpEdges || $0.isStrong }
        for candidate in regions {
            fitted += Self.templateSymbols(search.image, around: candidate, policy: policy, middle: middle)
            if done(fitted) { return fitted }
        }
        for joined in Self.joinedPieces(regions) {
            fitted += Self.templateSymbols(search.image, around: joined, policy: policy, middle: middle)
            if done(fitted) { break }
        }
        return fitted
    }

    /// Pairs of `regions` that look like two pieces of one symbol, each joined into one region:
    /// bars in the same direction (to 10°), side by side across the bars (neither holding the
    /// other's extent) with a gap narrower than half the narrower piece, and overlapping along the
    /// bars by half the shorter one. Blocks that lie inside a wide bar or space of a blurred
    /// symbol hold too little gradient for the map, and cut the symbol there; neither piece holds
    /// the whole structure the fit needs. The joined region takes the direction and polarity of
    /// the piece of more blocks, and the blocks of both.
    static func joinedPieces(_ regions: [Candidate]) -> [Candidate] {
        var joined: [Candidate] = []
        for (i, a) in regions.enumerated() {
            for b in regions[(i + 1)...] where CandidateMap.turn(a.angle, b.angle) < 10 {
                let acrossX = abs(a.angle) < 45
                let (a0, a1, b0, b1) = acrossX ? (a.rect.x, a.rect.maxX, b.rect.x, b.rect.maxX)
                                               : (a.rect.y, a.rect.maxY, b.rect.y, b.rect.maxY)
                let (c0, c1, d0, d1) = acrossX ? (a.rect.y, a.rect.maxY, b.rect.y, b.rect.maxY)
                                               : (a.rect.x, a.rect.maxX, b.rect.x, b.rect.maxX)
                let gap = max(a0, b0) - min(a1, b1), overlap = min(c1, d1) - max(c0, d0)
                let sideBySide = (a0 < b0 && a1 < b1) || (b0 < a0 && b1 < a1)
                guard sideBySide, 2 * gap < min(a1 - a0, b1 - b0), 2 * overlap >= min(c1 - c0, d1 - d0) else { continue }
                var piece = a.blocks >= b.blocks ? a : b
                piece.rect = a.rect.union(b.rect)
                piece.blocks = a.blocks + b.blocks
                joined.append(piece)
            }
        }
        return joined
    }

    /// The recovery stage: the areas in turn, each until what was read in it is settled. Once
    /// everything read is settled, only a region that looks strongly like a barcode
    /// (``Candidate/isStrong``: a second book) is still searched.
    func recover(_ search: inout Search, stage: SearchStage) {
        // A later stage of every line is for what the stages before left unsettled.
        if stage.everyLine, Arbiter.isSettled(search.all, minimumEvidence: confirmations, accepting: policy.accepting) { return }
        for (k, (area, candidate)) in search.areas.enumerated() {
            if search.otherPlaces {
                // Another book's place: searched until a code settled there covers its region. Only
                // a region that looks strongly like a barcode gets the passes beside codes read: the
                // full scan has looked at each, and text and textures are most of the rest.
                guard let candidate, candidate.isStrong,
                      !Arbiter.unsettled([candidate], by: search.all, minimumEvidence: confirmations,
                                         accepting: policy.accepting).isEmpty else { continue }
            } else if k > 0, Arbiter.isSettled(search.all, minimumEvidence: confirmations, accepting: policy.accepting),
               !(candidate?.isStrong ?? false) {
                continue
            }
            // What this area's passes must settle: what was read in it (an area around one region).
            let before = search.focused ? search.all.filter { symbol in
                area.contains(symbol.box.center)
            } : search.all
            search.found += recover(search.image, area: area, halved: area == search.rect ? search.halved : nil,
                                    before: before, looksLike: candidate, focused: search.focused, stage: stage,
                                    ran: &search.ran)
        }
    }

    /// The recovery passes of `stage` on `area` of `image` (full-image pixels), cheapest first — or
    /// in the order `looksLike` suggests — until every place of `before` plus what they read is
    /// settled. An area over ``DecodingPolicy/halfSizeAbovePixels`` is halved first (a barcode the
    /// full scan missed in a 12-megapixel photo is blurred or noisy, and halving smooths it at a
    /// quarter of the cost of every pass after); `halved` is the whole image at half size, when
    /// already made. A pass listed in `ran` for this area and these lines is skipped, and every
    /// pass run is added to it.
    ///
    /// With `focused` (`area` is around `candidate` only) and not ``SearchStage/everyLine``, zbar
    /// scans across its bars only.
    func recover(_ image: LuminanceImage, area: PixelRect, halved: LuminanceImage?, before readings: [Symbol],
                 looksLike candidate: Candidate?, focused: Bool = false, stage: SearchStage, ran: inout Set<String>) -> [Symbol] {
        let factor = area.width * area.height > policy.halfSizeAbovePixels ? 2 : 1
        let wholeImage = area.x == 0 && area.y == 0 && area.width == image.width && area.height == image.height
        let crop = (wholeImage && factor == 2 ? halved : nil)
            ?? image.cropped(x: area.x, y: area.y, width: area.width, height: area.height).downscaled(by: factor)
        // `focused`: the area is around this one region, which says what is in it (a stage of
        // every line tries every pass on every line all the same).
        let around = focused && !stage.everyLine ? candidate : nil
        let passes = Self.planned(Self.passes(for: stage.effort, width: crop.width, height: crop.height, policy: policy),
                                  for: candidate, focused: around != nil)
        // Every n-th line (``DecodingPolicy/recoveryLines``), or every line.
        let recoveryDensity = stage.everyLine ? 1 : max(1, min(crop.width, crop.height) / max(1, policy.recoveryLines))
        func run(_ pass: DecodingPass, on source: LuminanceImage, as name: PassName? = nil) -> [Symbol] {
            let (transformed, toRegion) = pass.apply(source)
            let across = around.map { Self.lines(across: $0, width: transformed.width, height: transformed.height,
                                                 turned: pass.rotates, policy: policy) }
            let symbols = pass.byLines ? EANLineDecoder.scan(transformed, pass: name ?? pass.name)
                : across.map { scanner.scan(transformed, pixels: PixelRect(x: 0, y: 0, width: transformed.width, height: transformed.height),
                                            pass: name ?? pass.name, rows: $0.rows, columns: $0.columns) }
                  ?? scanner.scan(transformed, pass: name ?? pass.name, density: recoveryDensity)
            return Self.verified(symbols, in: transformed).map { symbol in
                symbol.mapped { u, v in
                    let (x, y) = toRegion(u, v)
                    return (fromReduced(x, by: Double(factor)) + Double(area.x), fromReduced(y, by: Double(factor)) + Double(area.y))
                }
            }
        }
        // The same pixels through the same pass on the same lines read the same: a key per run.
        func key(_ pass: DecodingPass) -> String {
            let lines = pass.byLines ? "lines" : around != nil ? "across" : "\(recoveryDensity)"
            return "\(area.x),\(area.y),\(area.width),\(area.height) \(pass.name.rawValue) \(lines)"
        }
        // Passes stop once every place has a code with enough evidence (``Arbiter``: two agreeing
        // passes, or one confirmed by the fit). A code only one pass read gets a second look at
        // once: the same pass on a smoothed and on a lightened copy of the region.
        var found: [Symbol] = []
        var variants: [(String, LuminanceImage)]?
        for pass in passes where ran.insert(key(pass)).inserted {
            let symbols = run(pass, on: crop)
            found += symbols
            if symbols.contains(where: { !$0.symbology.isAddOn }) && !unconfirmed(found).isEmpty {
                if variants == nil { variants = [("smooth", crop.boxBlurred()), ("gamma-0.8", crop.gammaAdjusted(0.8))] }
                for (suffix, variant) in variants! where !unconfirmed(found).isEmpty {
                    found += run(pass, on: variant, as: pass.name.then(suffix))
                }
            }
            if Arbiter.isSettled(readings + found, minimumEvidence: confirmations, accepting: policy.accepting) { break }
        }
        return found
    }

    /// The EAN-13 ``EANTemplateDecoder`` reads in `candidate` (full-image pixels of `image`): the
    /// reading of the profile averaged over the bars' middle, when one of the three bands of it
    /// reads the same code on its own, both with `policy`'s ``DecodingPolicy/templateMargin``
    /// (and the whole with its ``DecodingPolicy/templateError``). Confirmed by that agreement.
    ///
    /// The profile is fitted in the image's values first and, when that reads nothing, in light
    /// (``EANTemplateDecoder/Light``): the first that reads is the reading. Both fit the same
    /// pixels, so they are one measurement, never two. `middle`: half of the lines (the middle,
    /// or either end) may be read on their own where the region reaches past the bars
    /// (``EANTemplateDecoder/readings(in:around:margin:error:light:middle:registers:)``); the
    /// lines registered to the bars (``BarRegistration``) are read last either way. The lines follow
    /// the bars' direction as measured from the bars themselves
    /// (``EANTemplateDecoder/refinedAngle(in:around:)``), not the map's estimate of it.
    public static func templateSymbols(_ image: LuminanceImage, around candidate: Candidate,
                                       policy: DecodingPolicy = DecodingPolicy(), middle: Bool = true) -> [Symbol] {
        let templateMargin = policy.templateMargin, templateError = policy.templateError
        var candidate = candidate
        candidate.angle = EANTemplateDecoder.refinedAngle(in: image, around: candidate)
        for light in [EANTemplateDecoder.Light.pixelValues, .linear] {
            let results = EANTemplateDecoder.readings(in: image, around: candidate, margin: templateMargin,
                                                      error: templateError, light: light, middle: middle,
                                                      registers: policy.registersBars,
                                                      activeStretch: policy.guessesActiveStretch)
            guard let whole = results.first(where: { $0.band == 0 })?.0,
                  whole.margin >= templateMargin, whole.error <= templateError else { continue }
            let agreeing = results.filter { $0.band != 0 && $0.0.digits == whole.digits && $0.0.margin >= templateMargin }
            guard !agreeing.isEmpty else { continue }
            var symbol = Symbol(symbology: .ean13, data: whole.digits.map(String.init).joined(), quality: 1 + agreeing.count,
                                orientation: nil, place: candidate.rect, pass: .symbolFit)
            symbol.verification = .confirmed(lines: 1 + agreeing.count)
            return [symbol]
        }
        return []
    }

    /// The areas to search for `candidates` (at most `maximum`, in their order): each widened by
    /// half its longer side and `margin` pixels (``DecodingPolicy/areaMargin``) across its bars —
    /// a region found in part still gets its quiet zones — and by `margin` along them (bars upright
    /// or lying flat, within 15°: any line across the bars reads them, and a taller area costs
    /// every pass; a line of type 600 pixels wide was searched in 16 times its own area); bars
    /// turned 15–75° get the wide margin on every side. Overlapping areas are merged, and clipped
    /// to `rect`.
    static func areas(_ candidates: [Candidate], within rect: PixelRect, maximum: Int = DecodingPolicy().maximumAreas,
                      margin extra: Int = DecodingPolicy().areaMargin) -> [(rect: PixelRect, looksLike: Candidate?)] {
        var areas: [(rect: PixelRect, looksLike: Candidate?)] = []
        for c in candidates.prefix(max(0, maximum)) {
            let margin = max(c.rect.width, c.rect.height) / 2 + extra
            // Bars upright or lying flat (within 15°): along them, the margin only (any line across
            // the bars reads them; the region's own extent along them is enough).
            let upright = CandidateMap.turn(c.angle, 0) < 15, flat = CandidateMap.turn(c.angle, 90) < 15
            let (mx, my) = upright ? (margin, extra) : flat ? (extra, margin) : (margin, margin)
            var box = c.rect.insetBy(dx: -mx, dy: -my)
            // Areas that overlap become one (the parts of one symbol, cut by a wide bar).
            var looksLike: Candidate? = c
            while let k = areas.firstIndex(where: { $0.rect.intersection(box) != nil }) {
                let a = areas.remove(at: k)
                box = box.union(a.rect)
                looksLike = a.looksLike.map { $0.blocks >= c.blocks ? $0 : c } ?? c
            }
            guard let clipped = box.intersection(rect), clipped.width >= 16, clipped.height >= 16 else { continue }
            areas.append((clipped, looksLike))
        }
        return areas
    }

    /// The areas around `candidates` (``areas(_:within:maximum:margin:)`` with the policy's
    /// ``DecodingPolicy/maximumAreas`` and ``DecodingPolicy/areaMargin``) when together they cover
    /// less than half of `rect`: the full scan and the recovery passes then keep to them. `nil`
    /// when they cover more (the whole region is searched).
    func focusedAreas(_ candidates: [Candidate], within rect: PixelRect, maximum: Int? = nil)
        -> [(rect: PixelRect, looksLike: Candidate?)]? {
        let around = Self.areas(candidates, within: rect, maximum: maximum ?? policy.maximumAreas, margin: policy.areaMargin)
        return around.reduce(0, { $0 + $1.rect.width * $1.rect.height }) * 2 < rect.width * rect.height ? around : nil
    }

    /// The passes to run for `candidate`, the most barcode-like region of the area:
    /// ``ordered(_:for:)`` for what it looks like and, when the area is around that region only
    /// (`focused`) and its edges are sharp (``Candidate/hasSharpEdges``), without smoothing and
    /// unsharp masking. Those passes restore noisy and defocused bars, and both noise and defocus
    /// widen the edges; on the sets of `make bench-accuracy` they read no code around a sharp region.
    static func planned(_ passes: [DecodingPass], for candidate: Candidate?, focused: Bool) -> [DecodingPass] {
        var planned = ordered(passes, for: candidate)
        if focused, let candidate, candidate.hasSharpEdges {
            planned.removeAll(where: \.restoresBlur)
        }
        return planned
    }

    /// The zbar densities (every n-th row, every n-th column; 0: none) that scan across the bars
    /// of `candidate` in a `width`×`height` copy of its area, about
    /// ``DecodingPolicy/focusedRecoveryLines`` lines each way: rows for upright bars, columns for
    /// bars lying flat, both when turned 30–60°. In a `turned` copy (a rotation pass), whose
    /// bars are turned too, both.
    static func lines(across candidate: Candidate, width: Int, height: Int, turned: Bool,
                      policy: DecodingPolicy = DecodingPolicy()) -> (rows: Int, columns: Int) {
        let count = max(1, policy.focusedRecoveryLines)
        let rows = max(1, height / count), columns = max(1, width / count)
        let turn = abs(candidate.angle)
        if turned { return (rows, columns) }
        return turn < 30 ? (rows, 0) : turn > 60 ? (0, columns) : (rows, columns)
    }

    /// `passes` reordered for what the most barcode-like region looks like: inversions first
    /// for light bars on a dark ground, rotations first for bars turned 15–75°.
    static func ordered(_ passes: [DecodingPass], for candidate: Candidate?) -> [DecodingPass] {
        guard let candidate else { return passes }
        var first: [DecodingPass] = [], rest: [DecodingPass] = []
        let turned = abs(candidate.angle) >= 15 && abs(candidate.angle) <= 75
        for pass in passes {
            let inverts = pass.inverts, rotates = pass.rotates
            if (candidate.inverted && inverts && (turned || !rotates)) || (turned && rotates && (candidate.inverted || !inverts)) {
                first.append(pass)
            } else {
                rest.append(pass)
            }
        }
        return first + rest
    }

    /// The recovery passes for an effort level and a region size, cheapest first; `policy` gives
    /// the sizes that decide the scaled and turned passes (its effort is not used).
    static func passes(for effort: Effort, width: Int, height: Int, policy: DecodingPolicy = DecodingPolicy()) -> [DecodingPass] {
        guard effort != .fast else { return [] }
        let shorter = min(width, height)
        // The two unsharp passes subtract the same σ = 4 blur of the same image: made once.
        let blurs = SharedBlur(sigma: 4)
        var passes: [DecodingPass] = [
            .plain("smooth", restoresBlur: true) { $0.boxBlurred() },
            .lines("lines"),
            .plain("gamma-0.6") { $0.gammaAdjusted(0.6) },
            .plain("gamma-1.6") { $0.gammaAdjusted(1.6) },
            .plain("stretch") { $0.contrastStretched() },
            .plain("threshold") { $0.locallyThresholded() },
            // Out-of-focus photos: thin bars come back with unsharp masking. Only wide masks:
            // mild sharpening (sigma 1-3) makes zbar misread blurred bars consistently.
            .plain("unsharp", restoresBlur: true) { $0.unsharpMasked(by: blurs.blur(of: $0), amount: 3) },
            .plain("unsharp-strong", restoresBlur: true) { $0.unsharpMasked(by: blurs.blur(of: $0), amount: 8) },
            .plain("invert", inverts: true) { $0.inverted() },
            // Inversion first: light bars on dark; the smoothing is for their noise, not a restoration.
            .plain("invert-smooth", inverts: true) { $0.inverted().boxBlurred() },
        ]
        if shorter >= policy.halfPassMinimumSide { passes.append(.scaled("half", by: 2)) }
        if shorter >= policy.quarterPassMinimumSide { passes.append(.scaled("quarter", by: 4)) }
        // A rotation's canvas is the bounding box of the turned region: for a thin strip (a
        // 65535×1 image) it would be gigapixels. Angles whose canvas is over 3 times the region
        // are skipped: a strip that thin holds no barcode turned by that much.
        func fits(_ degrees: Double) -> Bool {
            let radians = degrees * .pi / 180, c = abs(cos(radians)), s = abs(sin(radians))
            let w = Double(width), h = Double(height)
            return (w * c + h * s) * (w * s + h * c) <= 3 * w * h
        }
        let halving = policy.rotateAtHalfSizeAbovePixels
        passes += [30.0, -30].filter(fits).map { .rotated(by: $0, halvingAbovePixels: halving) }
        if effort == .thorough {
            if width * height <= policy.upscaleUpToPixels { passes.append(.upscaled("upscale-2", by: 2)) }
            for degrees in [15.0, -15, 45, -45, 60, -60] where fits(degrees) { passes.append(.rotated(by: degrees, halvingAbovePixels: halving)) }
            for degrees in [15.0, -15, 30, -30, 45, -45] where fits(degrees) {
                passes.append(.rotated(by: degrees, inverted: true, halvingAbovePixels: halving))
            }
        }
        return passes
    }

    /// Main symbols that no other pass read at the same place.
    func unconfirmed(_ symbols: [Symbol]) -> [Symbol] {
        symbols.filter { symbol in
            !symbol.symbology.isAddOn && Arbiter.weight(symbol) < 3
                && !symbols.contains { $0.pass != symbol.pass && $0.overlaps(symbol) }
        }
    }

}
