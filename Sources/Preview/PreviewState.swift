// SPDX-License-Identifier: Apache-2.0
import Imaging
import LiveScan
import Scanning

/// What the preview window shows, kept up to date from a session's ``LiveScanEvent``s: the
/// latest frame, the region, the codes to outline, frames per second. The caller adds what
/// only it knows (ISBNs this session, the last one hyphenated, "already in catalogue").
///
/// Times are the session's (seconds since it started, from the events): an outline lasts
/// ``outlineSeconds`` of session time after the code was last read, so a frozen session keeps
/// its last picture.
public struct PreviewState: Sendable {
    /// How long an outline stays after the code was last read, in seconds.
    public static let outlineSeconds = 1.5

    struct Marked: Sendable {
        var outline: PreviewScene.Outline
        var lastRead: Double
    }

    public private(set) var frame: LiveFrame?
    public private(set) var width = 0
    public private(set) var height = 0
    /// The region scanned in the latest frame (frame pixels).
    public private(set) var region: PixelRect?
    /// Session time of the latest frame.
    public private(set) var time = 0.0
    /// Frames per second over the last half second of frames.
    public private(set) var framesPerSecond = 0.0
    /// Number of the latest frame (from 1).
    public private(set) var frameNumber = 0
    /// Frames counted since `rateStart` (session time), for ``framesPerSecond``.
    private var rateStart = 0.0, rateFrames = 0
    private var marked: [String: Marked] = [:]

    /// ISBNs this session (printed, less those undone).
    public var isbnCount = 0
    /// The last ISBN printed, as shown (hyphenated when the range data is there).
    public var lastISBN: String?
    /// The last ISBN was already in the catalogue (`--db`).
    public var alreadyInCatalogue = false
    /// Books' titles by ISBN-13, as the lookup (`--lookup`) finds them; the last ISBN's is shown
    /// in the status strip, and each confirmed code's beside its outline.
    public var titles: [String: String] = [:]
    /// The ISBN-13 of ``lastISBN``, whose title the strip shows.
    public var lastISBN13: String?
    /// The Japanese book code read with the last ISBN, as the strip shows it
    /// (`C-code 3055, 3200 yen before tax`), or `nil`.
    public var lastJapaneseCode: String?
    public var paused = false
    /// The region of interest scanned now (`--roi`, or what `r` switched to), named in the
    /// status strip.
    public var scanRegion = RegionOfInterest.band
    /// The session has ended (the window shows its last picture).
    public var ended = false

    public init(scanRegion: RegionOfInterest = .band) { self.scanRegion = scanRegion }

    /// Takes one event into account.
    public mutating func apply(_ event: LiveScanEvent) {
        switch event {
        case .started(_, let format, let region):
            width = format.width
            height = format.height
            self.region = region
        case .frame(let info):
            width = info.width
            height = info.height
            region = info.region
            time = info.time
            frameNumber = info.number
            if let image = info.image { frame = image }
            // Frames per second over half-second spans (one division per span, not per frame).
            rateFrames += 1
            if info.time - rateStart >= 0.5 {
                framesPerSecond = Double(rateFrames) / (info.time - rateStart)
                rateStart = info.time
                rateFrames = 0
            }
            // Until the first span is over: the rate so far.
            if framesPerSecond == 0, info.time > rateStart { framesPerSecond = Double(rateFrames) / (info.time - rateStart) }
            if !marked.isEmpty { marked = marked.filter { time - $0.value.lastRead <= Self.outlineSeconds } }
        case .read(_, let report):
            for code in report.codes {
                guard var mark = marked[code.symbol.data] else { continue }
                mark.outline.polygon = code.symbol.polygon
                mark.lastRead = time
                marked[code.symbol.data] = mark
            }
        case .confirmed(_, _, _, _, _, let codes):
            for code in codes {
                let label = code.verdict.isbn?.isbn13 ?? code.symbol.data
                marked[code.symbol.data] = Marked(outline: .init(kind: .confirmed, polygon: code.symbol.polygon, label: label),
                                                  lastRead: time)
            }
        case .refused(_, let code):
            let reason = code.verdict.rejection.map { "\(code.symbol.data) refused: \($0.reason.rawValue)" } ?? code.symbol.data
            marked[code.symbol.data] = Marked(outline: .init(kind: .refused, polygon: code.symbol.polygon, label: reason),
                                              lastRead: time)
        case .badFrame, .deviceError:
            break
        }
    }

    /// An ISBN printed: `shown` (hyphenated when the range data is there), its ISBN-13, its
    /// Japanese book code as the strip shows it, the ISBNs this session now, and whether the
    /// catalogue held it already.
    public mutating func printed(_ shown: String, isbn13: String, japaneseCode: String?, count: Int, alreadyInCatalogue: Bool) {
        isbnCount = count
        lastISBN = shown
        lastISBN13 = isbn13
        lastJapaneseCode = japaneseCode
        self.alreadyInCatalogue = alreadyInCatalogue
    }

    /// The last ISBN printed taken back: the one before it (`nil`: none) is the last again,
    /// without its notes.
    public mutating func undone(back shown: String?, isbn13: String?, count: Int) {
        isbnCount = count
        lastISBN = shown
        lastISBN13 = isbn13
        lastJapaneseCode = nil
        alreadyInCatalogue = false
    }

    /// `title` cut to ``titleLength`` characters (with `...`), so that the strip keeps its other parts.
    static func shortened(_ title: String) -> String {
        title.count <= titleLength ? title : String(title.prefix(titleLength - 3)) + "..."
    }

    /// The longest title shown, in characters.
    static let titleLength = 40

    /// The codes outlined now, confirmed ones last (drawn on top); a confirmed ISBN's label
    /// carries its title once known.
    public var outlines: [PreviewScene.Outline] {
        marked.values.map { mark in
            var outline = mark.outline
            if outline.kind == .confirmed, let title = titles[outline.label] { outline.label += " " + Self.shortened(title) }
            return outline
        }.filter { !$0.polygon.isEmpty }
            .sorted { ($0.kind == .confirmed ? 1 : 0, $0.label) < ($1.kind == .confirmed ? 1 : 0, $1.label) }
    }

    /// The status strip: frames per second, ISBNs this session, the last ISBN, notes.
    public var status: String {
        var parts = ["\(String(framesPerSecond, places: 1)) fps", "\(isbnCount) ISBN\(isbnCount == 1 ? "" : "s")"]
        if let lastISBN {
            var last = "last \(lastISBN)"
            if let lastJapaneseCode { last += " " + lastJapaneseCode }
            if let title = lastISBN13.flatMap({ titles[$0] }) { last += " \"\(Self.shortened(title))\"" }
            parts.append(last + (alreadyInCatalogue ? " (already in catalogue)" : ""))
        }
        parts.append("region: " + Self.name(of: scanRegion))
        if paused { parts.append("PAUSED") }
        if ended { parts.append("ended") }
        return parts.joined(separator: "  ")
    }

    /// How the status strip names `region`: "whole frame", "band" (the default band), else its
    /// `x,y,w,h` as `--roi` takes it.
    public static func name(of region: RegionOfInterest) -> String {
        region.isFull ? "whole frame" : region == .band ? "band" : region.description
    }

    /// The picture to draw now.
    public var scene: PreviewScene {
        PreviewScene(frame: frame, width: width, height: height, region: region, outlines: outlines, status: status)
    }
}
