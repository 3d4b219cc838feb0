// SPDX-License-Identifier: Apache-2.0
import Capture
import ISBN
import Imaging
import Scanning

/// Scans the region of interest of frames: the same decoding and ISBN layer as `scan`
/// (``MultiPassDecoder`` over ``BarcodeScanner``, judged by ``ScanReport``).
///
/// Only lines that can cross a barcode are scanned, spread over frames:
/// - a wide region (width ≥ 2 × height, the band): rows only. A column of the band is
///   108 pixels long at 720p and cannot cross a barcode lying along the band;
/// - a tall region (height ≥ 2 × width): columns only, for the same reason;
/// - otherwise both rows and columns.
///
/// Each frame scans every ``lineStep``-th line, starting at line `k mod lineStep` of the
/// region in the k-th frame scanned, so `lineStep` successive frames together scan every line
/// once. zbar's own density (`ZBAR_CFG_Y_DENSITY` / `ZBAR_CFG_X_DENSITY`) picks every n-th
/// line; the offset comes from the crop handed to zbar, which starts at the first line wanted.
/// The crop copies nothing; a strided copy of the rows (not built, not measured) would add a
/// copy and squash the geometry the reading verifier measures in.
///
/// Of a band (or a tall region), the sparse lines are scanned only across the stretches where
/// the barcode map's blocks see bars those lines cross, widened for the quiet zones, with the
/// whole region every ``wholeRegionEvery``-th frame and while a code the map missed is in view
/// (``narrowedSpans(of:lines:)``): zbar's cost is per pixel of every line, and type, noise and
/// blank cover around the code are most of a band's pixels.
///
/// A frame whose sparse lines read anything (any EAN, judged or not) is scanned again whole
/// (``MultiPassDecoder/decode(_:region:)``, every row and column, as
/// `scan` does): the cost goes to frames with a barcode, and a code read weakly on the sparse
/// lines is judged on all of them (without that, a blurred book took up to 2 more frames) —
/// except when they read only codes the session confirmed, at their places, which are followed
/// (``follow(_:in:)``) with a whole scan of the rest of the region every ``fullScanEvery``-th
/// frame (``scanRest(of:followed:spans:lines:)``).
///
/// A frame where nothing was read, when the region holds something barcode-like, is handed to
/// the recovery stages of the `normal` plan, which run in the camera's spare time
/// (``SpareTimeRecovery``): on a thread of their own at a lower priority, one attempt at a time,
/// their report counted as the sighting of the frame it comes back on.
///
/// With ``Effort/normal`` or ``Effort/thorough``, or `lineStep` 1, every frame gets that whole
/// scan (`lineStep` 1 is what the camera did before the lines were spread over frames).
///
/// Owns one zbar scanner, kept across frames (only the whole scan of a frame with a reading
/// starts from a fresh one, as `scan`'s first look does): not thread-safe, one per
/// capture loop.
public final class FrameScanner {
    public let region: RegionOfInterest
    public let decoder: MultiPassDecoder
    /// Lines between two lines scanned in one frame (1: every row and column of every frame).
    public let lineStep: Int
    /// Frames scanned so far: the next frame starts at line `scannedFrames % lineStep`.
    public private(set) var scannedFrames = 0

    /// The default ``lineStep``: every other row of the band per frame (54 of the 108 rows of
    /// 720p), all rows in two frames. On the seeded blurred, tilted and moving books of the
    /// tests (TimeToFirstReadTests), steps 2 and 4 confirmed the ISBN in the same frame as
    /// scanning everything on 8 of 9 sequences and 2 frames later on one (a book moving up
    /// through the band, read by the full scan in only 2 of 30 frames); step 3 was worse on 2.
    public static let defaultLineStep = 2

    /// - Parameters:
    ///   - region: the part of the frame to scan (fractions, origin top-left).
    ///   - effort: ``Effort/fast`` (default) is one sparse zbar scan per frame; the next frame
    ///     is the next chance, and ``FrameConfirmer`` guards against misreads.
    ///   - lineStep: see ``lineStep``; 1…16 (clamped).
    ///   - prefixes: the GS1 prefixes accepted as ISBNs (978; 979 with `--accept 979`).
    ///   - spareTime: where the recovery of frames the cheap scan cannot read runs: a thread of its
    ///     own (the default), or at once on the caller's (the same frames give the same readings).
    public init(region: RegionOfInterest, scannerOptions: ScannerOptions = ScannerOptions(), effort: Effort = .fast,
                lineStep: Int = FrameScanner.defaultLineStep, accepting prefixes: ISBNPrefixes = .only978,
                spareTime: SpareTimeMode = .background) {
        self.region = region
        self.recovery = effort == .fast
            ? SpareTimeRecovery(mode: spareTime == .background ? .background : .inline, scannerOptions: scannerOptions, accepting: prefixes)
            : nil
        self.decoder = MultiPassDecoder(scanner: BarcodeScanner(options: scannerOptions),
                                        policy: DecodingPolicy(effort: effort, accepting: prefixes))
        self.lineStep = min(max(1, lineStep), 16)
    }

    /// Which lines a `width`×`height` region gets scanned along.
    public enum Lines: Equatable, Sendable {
        case rows, columns, both
        public init(width: Int, height: Int) {
            if width >= 2 * height { self = .rows } else if height >= 2 * width { self = .columns } else { self = .both }
        }
    }

    /// The crop of a `length`-line span whose zbar scan at density `step` covers lines
    /// `offset`, `offset + step`, … : starts at `offset`, its length is 1 more than a multiple
    /// of `step` (zbar then starts at its first line).
    static func span(length: Int, step: Int, offset: Int) -> (start: Int, length: Int)? {
        guard offset < length else { return nil }
        return (offset, (length - offset - 1) / step * step + 1)
    }

    /// Where ``SpareTimeRecovery`` runs.
    public enum SpareTimeMode: Sendable {
        /// A thread of its own, at a lower priority: the capture loop never waits for it.
        case background
        /// At once, on the thread that scans the frame: its report comes with the same frame.
        case inline
    }

    /// The recovery of frames the cheap scan read nothing in (``Effort/fast`` only: the other
    /// efforts search every frame whole).
    private let recovery: SpareTimeRecovery?
    /// Frames handed to the spare-time recovery.
    public var recoveryAttempts: Int { recovery?.attempts ?? 0 }
    /// Frames whose report holds a code the spare-time recovery read.
    public private(set) var recoveredFrames = 0
    /// Frames where nothing was read, so far.
    private var framesWithoutRead = 0
    /// Something barcode-like was in view at the last map.
    private var barcodeLikeInView = false
    /// Of the frames where nothing was read, every n-th gets the map that looks for something
    /// barcode-like (about 0.2 ms on a 1080p band): at 30 frames/s, 4 times a second. While the
    /// last map found something, every frame the recovery is free for gets it.
    public static let mapEvery = 8

    /// A frame whose lines read nothing: when the recovery is free and the region has
    /// something barcode-like whose bars the region's lines can cross (upright in a band, lying
    /// flat in a tall region), the frame is handed to it.
    ///
    /// Attempts that read nothing at one place (type on a cover is barcode-like too) back off:
    /// after n in a row, the next waits until 2ⁿ⁻¹ − 1 times the last attempt's time has passed (at
    /// most ``longestBackoff`` seconds); something barcode-like at another place is tried at once,
    /// and a place where an attempt read a code is tried on every frame the recovery is free for
    /// (a blurred book held by hand reads in some frames only, and the code needs a second
    /// sighting) until ``placeReadPatience`` attempts in a row there read nothing or a frame shows
    /// nothing barcode-like.
    ///
    /// While that place is read, an attempt whose map sees only a part of it looks first where
    /// the code was read (``readPlace``), then at the map's regions: the map of a blurred symbol
    /// held by hand often sees only a piece of it, and a piece holds too little of the symbol's
    /// structure to fit. The digits still come from the new frame's pixels, judged by its own
    /// arbiter; the place is only where to look.
    func offerToRecovery(_ image: LuminanceImage, region: PixelRect) {
        guard let recovery, !recovery.isBusy else { return }
        let mapFrame = barcodeLikeInView || framesWithoutRead % Self.mapEvery == 0
        framesWithoutRead += 1
        guard mapFrame, CandidateMap.canMap(PixelRect(x: 0, y: 0, width: image.width, height: image.height)) else { return }
        let lines = Lines(width: image.width, height: image.height)
        let candidates = Self.barcodeLike(in: image).filter { c in lines == .both || (lines == .rows) == (abs(c.angle) < 45) }
        barcodeLikeInView = !candidates.isEmpty
        // Nothing barcode-like: whatever read at the last place has left the view.
        guard let place = candidates.first?.rect else { placeRead = false; readPlace = nil; return }
        let now = ContinuousClock.now
        if let last = lastPlace, last.intersection(place) != nil, let wait = notBefore, now < wait { return }
        if let last = lastPlace, last.intersection(place) == nil { failedAttempts = 0; placeRead = false; readPlace = nil }
        if readPlace?.region != region { readPlace = nil }
        let prior = readPlace.flatMap { Self.lookFirst(at: $0.rect, candidates: candidates) }
        if recovery.offer(image, candidates: candidates, first: prior, region: region) {
            lastPlace = place
            if prior != nil { attemptsAtReadPlace += 1 }
        }
    }

    /// The region an attempt looks at before the map's `candidates` (pixels of the region), where
    /// a code was read at `place`: `nil` when a candidate holds the place whole (to a block: a
    /// region is made of blocks, and a book held by hand moves), or none overlaps it. Else the
    /// candidate that overlaps it most, joined with it: its direction, polarity and edge measures
    /// are this frame's (a region whose edges are now sharp, type, is not fitted), its rectangle
    /// takes in the place and where the bars are now.
    static func lookFirst(at place: PixelRect, candidates: [Candidate]) -> Candidate? {
        let block = CandidateMap.block
        guard !candidates.contains(where: { $0.rect.insetBy(dx: -block, dy: -block).contains(place) }),
              var part = mostOverlapping(candidates, place) else { return nil }
        part.rect = part.rect.union(place)
        return part
    }

    /// The one of `candidates` that shares most pixels with `place`, if any shares one.
    static func mostOverlapping(_ candidates: [Candidate], _ place: PixelRect) -> Candidate? {
        candidates.filter { $0.rect.commonArea(place) > 0 }.max { $0.rect.commonArea(place) < $1.rect.commonArea(place) }
    }

    /// The map's barcode-like regions of `image` (one ``CandidateMap/canMap(_:)`` accepts), most
    /// barcode-like first; where it finds none, those of a half-size copy (pixels of `image`). A
    /// symbol defocused by more than a module at 2–3 pixels a module, in low contrast, leaves the
    /// map's blocks without the gradient energy they need; halving doubles the gradient and puts
    /// its wide bars and spaces in fewer blocks.
    /// The still-image search's coarse look does not reach a band: halved, it is under
    /// ``CandidateMap/canMap(_:)``'s four blocks high, not under the map's own two.
    static func barcodeLike(in image: LuminanceImage) -> [Candidate] {
        let (found, energy) = CandidateMap.findReportingEnergy(in: image)
        // A band with no block near the map's energy (a flat view) is not halved: halving at
        // most doubles a gradient.
        guard found.isEmpty, 4 * energy >= CandidateMap.minimumEnergy else { return found }
        return CandidateMap.find(in: image.downscaled(by: 2), scale: 2)
    }

    /// The longest wait between two attempts at a place where they read nothing (seconds).
    public static let longestBackoff = 4.0
    /// Attempts in a row that read nothing after which a place where one read a code backs off
    /// as any other: one frame's reading is one sighting, and a book held still for this many
    /// attempts without another is out of reach or was a chance reading.
    public static let placeReadPatience = 8
    /// The most barcode-like place of the last attempt (pixels of the region).
    private var lastPlace: PixelRect?
    /// Attempts in a row that read nothing.
    private var failedAttempts = 0
    /// An attempt at ``lastPlace`` read a code: it is a barcode, not type.
    private var placeRead = false
    /// No attempt at ``lastPlace`` before this.
    private var notBefore: ContinuousClock.Instant?
    /// Where an attempt last read an accepted code in one of the map's regions, while
    /// ``placeRead``: the code's place joined with the region that overlaps it most (zbar's
    /// place of a code is a few lines high), in pixels of `region`, the frame's region then (a
    /// region changed in the preview starts afresh). An attempt handed the place
    /// (``lookFirst(at:candidates:)``) does not move it: only the map's regions follow the book.
    private(set) var readPlace: (rect: PixelRect, region: PixelRect)?
    /// Attempts handed ``readPlace`` before the map's regions.
    public private(set) var attemptsAtReadPlace = 0

    /// Seconds within which the session counts the sightings of a code (``FrameConfirmer``): its
    /// own window `base`, or, when the spare-time recovery's attempts are slower, long enough for
    /// `frames` of them (each attempt is one frame's sighting; a code it reads gets no other). Any
    /// rival reading at the code's place is counted over the same time.
    public func sightingWindow(_ base: Double, frames: Int) -> Double {
        max(base, Double(frames) * 1.25 * (recovery?.lastSeconds ?? 0))
    }

    /// Adds to `report` the codes of a recovery attempt finished on this region since the last
    /// call, which it does not hold yet, and notes what the attempt found at its place (the
    /// back-off, ``placeRead``, ``readPlace``).
    func addRecovered(to report: inout ScanReport, region: PixelRect) {
        guard let recovery, let outcome = recovery.take(region: region) else { return }
        let recovered = outcome.report
        failedAttempts = recovered.codes.isEmpty ? failedAttempts + 1 : 0
        if !recovered.codes.isEmpty { placeRead = true }
        if failedAttempts >= Self.placeReadPatience { placeRead = false; readPlace = nil }
        // An attempt handed the read place does not move it (its readings take in that region,
        // which would only grow); the map's regions, when one holds the code, do.
        if outcome.first == nil, let place = recovered.accepted.first?.symbol.place {
            if let part = Self.mostOverlapping(outcome.candidates, place) { readPlace = (part.rect.union(place), region) }
        }
        let wait = failedAttempts == 0 || placeRead
            ? 0 : min(Self.longestBackoff, recovery.lastSeconds * Double((1 << min(failedAttempts - 1, 16)) - 1))
        notBefore = ContinuousClock.now + .milliseconds(Int(wait * 1000))
        let new = recovered.codes.filter { code in !report.codes.contains { $0.symbol.data == code.symbol.data } }
        guard !new.isEmpty else { return }
        report.codes += new
        recoveredFrames += 1
    }

    // MARK: Sparse lines where the bars are

    /// The sparse lines of a band (or of a tall region) are scanned only where the barcode
    /// map's blocks see bars that they cross (``CandidateMap/barSpans(in:alongRows:)``), widened
    /// by ``narrowedMargin(_:)`` for the quiet zones and the bars the blocks miss, except:
    /// - every ``wholeRegionEvery``-th frame, which scans the whole region as before, so that a
    ///   code zbar reads where the map sees no bars is still read;
    /// - after such a frame read a code outside the spans its map gave (``mapMissed``): every
    ///   frame scans the whole region until one reads nothing the map missed, so such a code
    ///   is seen in every frame, as before, while it stays.
    /// Where the map sees bars, the lines scanned are the same rows (or columns) as before.
    /// A region of both rows and columns is always scanned whole.
    public var wholeRegionEvery: Int { 2 * lineStep + 1 }
    /// Frames whose sparse lines were narrowed to the map's spans.
    public private(set) var narrowedFrames = 0
    /// Frames whose sparse lines covered the whole region.
    public private(set) var wholeRegionFrames = 0
    /// Sparse scans so far (the ``wholeRegionEvery`` count).
    private var sparseScans = 0
    /// The last whole scan read a code outside its map's spans.
    private var mapMissed = false

    /// Pixels added before and after a span of bars: 2 blocks, and a quarter of its length (the
    /// quiet zone of an EAN-13 is 11 of its 95 modules; its wide spaces and the digits' gaps can
    /// leave blocks out of the span).
    static func narrowedMargin(_ span: Range<Int>) -> Int { 2 * CandidateMap.block + span.count / 4 }

    /// The spans along the lines to scan in this frame (pixels of the region), `whole` when the
    /// map's spans were not used (then `spans` is the map's, widened, for ``noteMapMisses``);
    /// `nil` for a region of rows and columns or one too small to map.
    func narrowedSpans(of image: LuminanceImage, lines: Lines) -> (spans: [Range<Int>], whole: Bool)? {
        guard lines != .both else { return nil }
        let length = lines == .rows ? image.width : image.height
        var widened: [Range<Int>] = []
        for span in CandidateMap.barSpans(in: image, alongRows: lines == .rows) {
            let margin = Self.narrowedMargin(span)
            let wide = max(0, span.lowerBound - margin)..<min(length, span.upperBound + margin)
            if let last = widened.last, last.upperBound >= wide.lowerBound {
                widened[widened.count - 1] = last.lowerBound..<max(last.upperBound, wide.upperBound)
            } else {
                widened.append(wide)
            }
        }
        defer { sparseScans += 1 }
        let covered = widened.reduce(0) { $0 + $1.count }
        if mapMissed || sparseScans % wholeRegionEvery == 0 || 4 * covered >= 3 * length {
            wholeRegionFrames += 1
            return (widened, true)
        }
        narrowedFrames += 1
        return (widened, false)
    }

    /// After a whole scan: whether it read a code that lies outside the map's spans.
    func noteMapMisses(_ sparse: [Symbol], narrowed: (spans: [Range<Int>], whole: Bool)?, lines: Lines) {
        guard let narrowed, narrowed.whole else { return }
        mapMissed = sparse.contains { symbol in
            guard let place = symbol.place else { return true }
            let along = lines == .rows ? place.x..<(place.x + place.width) : place.y..<(place.y + place.height)
            return !narrowed.spans.contains { $0.lowerBound <= along.lowerBound && along.upperBound <= $0.upperBound }
        }
    }

    // MARK: Following confirmed codes

    /// Codes the session confirmed (``follow(_:in:)``), as last read: place (pixels of the region)
    /// and the re-measurement of their bars.
    private var followed: [Symbol] = []
    /// Frames in a row whose sparse lines read nothing.
    private var framesWithoutSparseRead = 0
    /// After this many frames in a row whose sparse lines read nothing, the followed codes have
    /// left (half a second at 30 frames/s): a blurred or noisy frame misses a code that is still
    /// in view, and the session confirms a code once per visit, so following must outlast it.
    public static let followedFramesUnseen = 15
    /// Frames judged by following confirmed codes, without the whole scan.
    public private(set) var trackedFrames = 0
    /// Frames that got the whole scan (``MultiPassDecoder/decode(_:region:)``), of the region or,
    /// beside followed codes, of the rest of it (``scanRest(of:followed:spans:lines:)``).
    public private(set) var fullDecodes = 0

    /// Follows `codes` — codes confirmed across frames (``FrameConfirmer``), polygons in pixels
    /// of the whole frame — in the next frames: a frame whose sparse lines read those digits at
    /// those places, and nothing else, is judged on them with the re-measurement made when they
    /// were confirmed, instead of a whole scan and fit of the same bars again. A frame with a new
    /// reading, or a code at another place, gets the whole scan; ``followedFramesUnseen`` frames
    /// in a row where the sparse lines read nothing end the following. Every frame still gives
    /// the session its own sighting, so the rules across frames are unchanged.
    public func follow(_ codes: [ReadCode], in pixels: RegionPixels) {
        if pixels.rect != followedRegion { followed = [] }
        followedRegion = pixels.rect
        for code in codes {
            guard case .confirmed? = code.symbol.verification else { continue }
            var symbol = code.symbol
            symbol.place = symbol.place?.offsetBy(dx: -pixels.rect.x, dy: -pixels.rect.y)
            followed.removeAll { $0.data == symbol.data }
            followed.append(symbol)
        }
    }

    /// The region (pixels of the frame) the followed codes' places are in: a new region (`r` in
    /// the preview) starts anew.
    private var followedRegion: PixelRect?
    /// Frames judged by following since the last whole scan.
    private var framesFollowed = 0
    /// While codes are followed, every n-th frame still gets the whole scan (a quarter second at
    /// 30 frames/s).
    public static let fullScanEvery = 8

    /// The report of a frame whose sparse readings `sparse` (pixels of the region) are all codes
    /// followed at their places, or `nil`.
    func judgeFollowed(_ sparse: [Symbol]) -> ScanReport? {
        let main = sparse.filter { !$0.symbology.isAddOn }
        guard !followed.isEmpty, !main.isEmpty else { return nil }
        var kept: [Symbol] = []
        for symbol in main {
            guard let known = followed.first(where: { $0.data == symbol.data && $0.symbology == symbol.symbology
                && $0.addOn == nil && $0.overlaps(symbol) }) else { return nil }
            // The place is where the code was confirmed and where the sparse lines read it now.
            var reading = symbol
            reading.verification = known.verification
            reading.place = PixelRect(covering: known.polygon + symbol.polygon)
            kept.append(reading)
        }
        followed = followed.map { known in
            guard var now = main.first(where: { $0.data == known.data }) else { return known }
            now.verification = known.verification
            return now
        }
        return ScanReport(symbols: kept + sparse.filter(\.symbology.isAddOn), accepting: decoder.policy.accepting)
    }

    /// The report of a frame whose sparse lines read only followed codes (`followed`, judged by
    /// ``judgeFollowed(_:)``), with the whole scan (``MultiPassDecoder/decode(_:region:)``) of
    /// each of the map's `spans` (pixels along the lines, across the whole region) that holds no
    /// followed code: a second book beside the followed one is read as by the whole scan of the
    /// region, without scanning and measuring the followed one's bars again.
    func scanRest(of image: LuminanceImage, followed: ScanReport, spans: [Range<Int>], lines: Lines) -> ScanReport {
        var symbols = followed.codes.map(\.symbol)
        let places = symbols.compactMap(\.place).map { lines == .rows ? $0.x..<($0.x + $0.width) : $0.y..<($0.y + $0.height) }
        decoder.knownMeasurements = []
        for span in spans where !places.contains(where: { $0.overlaps(span) }) {
            let rect = lines == .rows
                ? PixelRect(x: span.lowerBound, y: 0, width: span.count, height: image.height)
                : PixelRect(x: 0, y: span.lowerBound, width: image.width, height: span.count)
            let crop = image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            for code in decoder.decode(crop).codes {
                var symbol = code.symbol
                symbol.place = symbol.place?.offsetBy(dx: rect.x, dy: rect.y)
                symbols.append(symbol)
            }
        }
        return ScanReport(symbols: symbols, accepting: decoder.policy.accepting)
    }

    /// Scans `pixels` and judges every code. Polygons are in pixels of the whole frame.
    public func scan(_ pixels: RegionPixels) -> ScanReport {
        let image = pixels.image
        let lines = Lines(width: image.width, height: image.height)
        var report: ScanReport
        if decoder.effort != .fast || lineStep == 1 {
            report = decoder.decode(image)
            fullDecodes += 1
        } else {
            let offset = scannedFrames % lineStep
            // zbar's first line in a crop of height h at density n is ((h - 1) % n + 1) / 2 lines
            // in (img_scanner.c); a crop with (h - 1) % n == 0 starts at its first line, so the
            // crop places the lines.
            let narrowed = narrowedSpans(of: image, lines: lines)
            var sparse: [Symbol] = []
            if lines != .columns, let s = Self.span(length: image.height, step: lineStep, offset: offset) {
                for across in narrowed.flatMap({ $0.whole ? nil : $0.spans }) ?? [0..<image.width] {
                    let rect = PixelRect(x: across.lowerBound, y: s.start, width: across.count, height: s.length)
                    sparse += decoder.scanner.scan(image, pixels: rect, pass: .full, rows: lineStep, columns: 0)
                }
            }
            if sparse.isEmpty, lines != .rows, let s = Self.span(length: image.width, step: lineStep, offset: offset) {
                for across in narrowed.flatMap({ $0.whole ? nil : $0.spans }) ?? [0..<image.height] {
                    let rect = PixelRect(x: s.start, y: across.lowerBound, width: s.length, height: across.count)
                    sparse += decoder.scanner.scan(image, pixels: rect, pass: .full, rows: 0, columns: lineStep)
                }
            }
            noteMapMisses(sparse, narrowed: narrowed, lines: lines)
            // Nothing on the sparse lines: nothing to judge (followed codes have left after
            // ``followedFramesUnseen`` such frames). Only codes followed at their places: the frame
            // is judged on the sparse lines (below).
            // Anything else (any EAN, even one a judge would refuse): this frame gets the whole
            // scan, every line, as `scan` does, so that a code the sparse lines read weakly is
            // judged on all of them; the sparse readings themselves are neither verified nor kept
            // (the whole scan reads them again).
            if sparse.isEmpty {
                framesWithoutSparseRead += 1
                if framesWithoutSparseRead >= Self.followedFramesUnseen { followed = [] }
            } else {
                framesWithoutSparseRead = 0
            }
            // Every ``fullScanEvery``-th frame of following gets the whole scan all the same: a
            // second, weaker book beside the followed one is read only by it.
            if pixels.rect != followedRegion { followed = [] }
            let kept = judgeFollowed(sparse)
            if let kept, framesFollowed < Self.fullScanEvery - 1 {
                report = kept
                trackedFrames += 1
                framesFollowed += 1
            } else if let kept, let narrowed {
                // The whole scan of the rest of the region: every span where the map sees bars
                // but the followed codes, scanned and judged as the whole region would be.
                framesFollowed = 0
                report = scanRest(of: image, followed: kept, spans: narrowed.spans, lines: lines)
                fullDecodes += 1
            } else if !sparse.isEmpty {
                framesFollowed = 0
                // The followed codes are not measured again at their places (judgeFollowed does
                // the same): the whole scan is for what else the region holds.
                decoder.knownMeasurements = followed
                report = decoder.decode(image)
                fullDecodes += 1
            } else {
                report = ScanReport(symbols: [], accepting: decoder.policy.accepting)
            }
        }
        if decoder.effort == .fast {
            // Nothing read, or only what neither the frame's arbiter accepted nor a re-measurement
            // of the bars confirmed (a blurred symbol that zbar misreads): the recovery's turn.
            let settled = report.codes.contains { code in
                if code.verdict.isbn != nil { return true }
                if case .confirmed? = code.symbol.verification { return true }
                return false
            }
            // An attempt that finished on its thread is taken before the frame is offered (and
            // none is offered before its report is taken), so the offer knows what it found: its
            // back-off, the place it read. One run at once (``SpareTimeMode/inline``) is taken after.
            if recovery?.mode == .background { addRecovered(to: &report, region: pixels.rect) }
            if !settled { offerToRecovery(image, region: pixels.rect) }
            if recovery?.mode == .inline { addRecovered(to: &report, region: pixels.rect) }
        }
        scannedFrames += 1
        for index in report.codes.indices {
            report.codes[index].symbol.place = report.codes[index].symbol.place?.offsetBy(dx: pixels.rect.x, dy: pixels.rect.y)
        }
        return report
    }
}
