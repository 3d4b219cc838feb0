/// Decides when a code seen in a video stream is reported: after it was read in
/// `requiredFrames` frames, and — in a long session — again only after it has been out of
/// view for `repeatAfter` seconds.
///
/// A *visit* of a code starts with the first frame it is read in and ends once it has not
/// been read for `repeatAfter` seconds; the code is reported once per visit, at its
/// `requiredFrames`-th sighting. A misread on one blurry frame stays at one sighting and is
/// forgotten when its visit ends. Times are seconds on any monotonic clock.
public struct FrameConfirmer: Sendable {
    /// Frames a code must be read in before it is reported (≥ 1; default 2).
    public let requiredFrames: Int
    /// Seconds out of view after which a code counts as gone (≥ 0; default 3).
    public let repeatAfter: Double

    struct Visit: Sendable {
        var sightings: Int
        var lastSeen: Double
        var reported: Bool
    }

    private var visits: [String: Visit] = [:]

    public init(requiredFrames: Int = 2, repeatAfter: Double = 3) {
        self.requiredFrames = max(1, requiredFrames)
        self.repeatAfter = max(0, repeatAfter)
    }

    /// Records the codes read in one frame taken at `time` and returns those to report now,
    /// in the order given. Codes repeated within `codes` count once.
    public mutating func observe(_ codes: [String], at time: Double) -> [String] {
        let present = Set(codes)
        for (code, visit) in visits where !present.contains(code) && time - visit.lastSeen >= repeatAfter {
            visits[code] = nil
        }
        var confirmed: [String] = []
        var counted = Set<String>()
        for code in codes where counted.insert(code).inserted {
            var visit = visits[code] ?? Visit(sightings: 0, lastSeen: time, reported: false)
            visit.sightings += 1
            visit.lastSeen = time
            if !visit.reported && visit.sightings >= requiredFrames {
                visit.reported = true
                confirmed.append(code)
            }
            visits[code] = visit
        }
        return confirmed
    }

    /// Codes currently in a visit (seen, not yet gone), reported or not.
    public var tracked: Set<String> { Set(visits.keys) }
}
