// SPDX-License-Identifier: Apache-2.0
import Scanning

/// Decides when a code seen in a video stream is reported: after it was read in
/// `requiredFrames` frames close together, with no rival reading at its place that has
/// comparable support, and — in a long session — again only after it has been out of view for
/// `repeatAfter` seconds.
///
/// A *visit* of a code starts with the first frame it is read in and ends once it has not
/// been read for `repeatAfter` seconds; the code is reported once per visit, when it has been
/// read in `requiredFrames` frames within the last `window` seconds (two glimpses far apart do
/// not confirm a code) and at least ``Arbiter/winningRatio`` times as many as any other code
/// read at the same place (``Symbol/overlaps(_:)``) in that window that could be a misread of
/// it (at most half of the digits differ; see ``couldBeMisreads(_:_:)``): a misread that appears in
/// single frames holds back the code it rivals until the right code clearly outnumbers it, and
/// is never reported itself unless it does the same. Times are seconds on any monotonic clock.
public struct FrameConfirmer: Sendable {
    /// Frames a code must be read in before it is reported (≥ 1; default 2).
    public let requiredFrames: Int
    /// Seconds out of view after which a code counts as gone (≥ 0; default 3).
    public let repeatAfter: Double
    /// Seconds within which the `requiredFrames` sightings, and those of rivals, are counted
    /// (> 0; default 1: 30 frames of a 30 frames/s camera).
    public let window: Double

    struct Visit: Sendable {
        var lastSeen: Double
        var reported: Bool
    }

    private var visits: [String: Visit] = [:]
    /// Sightings within the last `window` seconds: time and symbol (its data and place).
    private var recent: [(time: Double, symbol: Symbol)] = []

    public init(requiredFrames: Int = 2, repeatAfter: Double = 3, window: Double = 1) {
        self.requiredFrames = max(1, requiredFrames)
        self.repeatAfter = max(0, repeatAfter)
        self.window = window > 0 ? window : 1
    }

    /// Records the codes read in one frame taken at `time` (codes without a place: they have
    /// no rivals) and returns those to report now, in the order given. Codes repeated within
    /// `codes` count once.
    public mutating func observe(_ codes: [String], at time: Double) -> [String] {
        observe(codes.map { Symbol(symbology: .ean13, data: $0, quality: 1, orientation: nil, polygon: []) },
                reportable: Set(codes), at: time)
    }

    /// Records every main symbol read in one frame taken at `time` (all of them, refused ones
    /// too, so that a misread counts as a rival) and returns the codes among `reportable` to
    /// report now, in the order given. `window`, when longer than ``window``, is the window of
    /// this call (sightings that come slower than frames, each a piece of evidence: see
    /// ``FrameScanner/sightingWindow(_:frames:)``).
    public mutating func observe(_ symbols: [Symbol], reportable: Set<String>, at time: Double,
                                 window longer: Double? = nil) -> [String] {
        let window = max(window, longer ?? 0)
        let present = Set(symbols.map(\.data))
        for (code, visit) in visits where !present.contains(code) && time - visit.lastSeen >= repeatAfter {
            visits[code] = nil
        }
        recent.removeAll { time - $0.time >= window }
        var counted = Set<String>()
        for symbol in symbols where counted.insert(symbol.data).inserted {
            recent.append((time, symbol))
            var visit = visits[symbol.data] ?? Visit(lastSeen: time, reported: false)
            visit.lastSeen = time
            visits[symbol.data] = visit
        }
        var confirmed: [String] = []
        for code in symbols.map(\.data) where reportable.contains(code) && !confirmed.contains(code) {
            guard let visit = visits[code], !visit.reported else { continue }
            let own = recent.filter { $0.symbol.data == code }
            guard own.count >= requiredFrames else { continue }
            // Frames in the window in which another code was read where this one was.
            var rivals: [String: Set<Double>] = [:]
            for other in recent where other.symbol.data != code && !other.symbol.polygon.isEmpty
                && Self.couldBeMisreads(code, other.symbol.data) {
                if own.contains(where: { !$0.symbol.polygon.isEmpty && $0.symbol.overlaps(other.symbol) }) {
                    rivals[other.symbol.data, default: []].insert(other.time)
                }
            }
            let strongest = rivals.values.map(\.count).max() ?? 0
            guard own.count >= Arbiter.winningRatio * strongest else { continue }
            visits[code]?.reported = true
            confirmed.append(code)
        }
        return confirmed
    }

    /// Whether `a` and `b` could be readings of one barcode: the same length, and at most half
    /// of their digits differ (a misread changes a few digits; the next book held to the camera
    /// at the same place shares only its prefix with the last one, and is no rival of it).
    static func couldBeMisreads(_ a: String, _ b: String) -> Bool {
        a.count == b.count && zip(a, b).filter { $0 != $1 }.count * 2 <= a.count
    }

    /// Codes currently in a visit (seen, not yet gone), reported or not.
    public var tracked: Set<String> { Set(visits.keys) }
}
