// SPDX-License-Identifier: Apache-2.0
import Imaging

/// What the search of one image does, in order: built once from the image's facts and the
/// effort (``init(effort:region:firstLookDone:policy:)``), then run by one loop
/// (``MultiPassDecoder/decode(_:region:)``) that asks the ``Arbiter`` after each stage whether
/// the result is settled.
///
/// | stage | what it does | from effort |
/// | --- | --- | --- |
/// | ``SearchStage/Kind/firstLook`` | sparse zbar rows, then columns (at half size for big regions) | fast |
/// | ``SearchStage/Kind/map`` | ``CandidateMap``: where a barcode may be; nowhere leaves only the coarse fit (`normal`) | fast |
/// | ``SearchStage/Kind/fullScan`` | zbar on every line, of the areas around the barcode-like regions | fast |
/// | ``SearchStage/Kind/recovery`` | transformed copies of each area (smoothing, tone curves, inversion, scales, ±30° turns, the line decoder) | normal |
/// | ``SearchStage/Kind/symbolFit`` | the fit of the whole symbol to each barcode-like region (``EANTemplateDecoder``) | normal |
/// | ``SearchStage/Kind/coarseFit`` | where nothing was read: the map made for defocused symbols, at the map's scale, at half and at a quarter of it, and the fit on what it finds (a region the map can map only) | normal |
/// | ``SearchStage/Kind/recovery`` (every line) | the same passes on every line of every area, 2× upscaling, turns of ±15/45/60°, inverted turns | thorough |
///
/// **Each effort's plan extends the one below** (``stages`` of `thorough` begin with those of
/// `normal`, which begin with those of `fast`), and the executor keeps what the plan below would
/// have returned at the end of its stages (``ScanReport/keeping(_:)``): a code a lower effort
/// reads, a higher one reads too, by construction. A pass already run on the same pixels with
/// the same lines is not run again: repeating it would add readings, not evidence.
public struct SearchPlan: Sendable, CustomStringConvertible {
    /// The stages, in the order they run.
    public private(set) var stages: [SearchStage] = []

    /// The plan for `effort` on a region `region` pixels large (of the full-size image), whose
    /// first look already ran on a reduced copy when `firstLookDone`.
    public init(effort: Effort, region: PixelRect, firstLookDone: Bool = false, policy: DecodingPolicy = DecodingPolicy()) {
        if !firstLookDone { stages.append(SearchStage(.firstLook, from: .fast)) }
        stages += [SearchStage(.map, from: .fast), SearchStage(.fullScan, from: .fast)]
        guard effort != .fast else { return }
        stages += [SearchStage(.recovery, from: .normal, passes: Self.passes(.normal, region: region, policy: policy)),
                   SearchStage(.symbolFit, from: .normal)]
        // The coarse fit's first look maps the region at the map's scale (half size from
        // ``DecodingPolicy/mapAtHalfSizeAbovePixels``): a region too small for that gets none.
        let mapScale = region.width * region.height >= policy.mapAtHalfSizeAbovePixels ? 2 : 1
        if CandidateMap.canMap(region.reduced(by: mapScale)) { stages.append(SearchStage(.coarseFit, from: .normal)) }
        guard effort == .thorough else { return }
        var thorough = SearchStage(.recovery, from: .thorough, passes: Self.passes(.thorough, region: region, policy: policy))
        thorough.everyLine = true
        stages.append(thorough)
    }

    /// What a camera runs in its spare time on a frame whose cheap scan read nothing but whose map
    /// found something barcode-like (`region`: the frame's region of interest): the stages of the
    /// `normal` plan after the map, with the symbol fit before the recovery passes. A webcam that
    /// cannot focus at reading distance shows a book's bars defocused, which the fit reads and the
    /// passes rarely do; where the fit settles a code the passes are not run, and judged as
    /// `normal` judges them either way.
    public static func spareTime(region: PixelRect, policy: DecodingPolicy) -> SearchPlan {
        var plan = SearchPlan(effort: .fast, region: region, firstLookDone: true, policy: policy)
        var recovery = SearchStage(.recovery, from: .normal, passes: Self.passes(.normal, region: region, policy: policy))
        recovery.afterFit = true
        plan.stages += [SearchStage(.symbolFit, from: .normal), recovery]
        return plan
    }

    /// The names of the stages, one per line, with their properties.
    public var description: String { stages.map(\.description).joined(separator: "\n") }

    /// The recovery passes of `effort`'s own recovery stage (the normal passes at `normal`, them
    /// again and the extra ones at `thorough`) for a region of that size, cheapest first. The
    /// passes that decide by size use the size of the region: an area searched within it may be
    /// smaller (see ``MultiPassDecoder/passes(for:width:height:policy:)``, which the executor
    /// asks for each area).
    static func passes(_ effort: Effort, region: PixelRect, policy: DecodingPolicy) -> [String] {
        MultiPassDecoder.passes(for: effort, width: region.width, height: region.height, policy: policy).map(\.name.rawValue)
    }
}

/// One stage of a ``SearchPlan``.
public struct SearchStage: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case firstLook = "first-look", map = "barcode-map", fullScan = "full-scan", recovery, symbolFit = "symbol-fit"
        case coarseFit = "coarse-symbol-fit"
    }
    public var kind: Kind
    /// The lowest effort whose plan holds this stage.
    public var effort: Effort
    /// Recovery: the passes' names, in order (for a region of the plan's size).
    public var passes: [String]
    /// Recovery: every line of every area is scanned (else every n-th, or only lines across the
    /// bars of an area around one region: ``DecodingPolicy/recoveryLines``, ``DecodingPolicy/focusedRecoveryLines``).
    public var everyLine = false
    /// Recovery after the symbol fit: an area is searched only while what was read is not
    /// settled, or when it looks strongly like a second barcode.
    public var afterFit = false

    init(_ kind: Kind, from effort: Effort, passes: [String] = []) {
        self.kind = kind
        self.effort = effort
        self.passes = passes
    }

    public var description: String {
        kind.rawValue + " (\(effort.rawValue))" + (everyLine ? ", every line" : "") + (afterFit ? ", after the fit" : "")
            + (passes.isEmpty ? "" : ": " + passes.joined(separator: " "))
    }
}
