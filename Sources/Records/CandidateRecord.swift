// SPDX-License-Identifier: Apache-2.0
import Scanning

/// A barcode-like region where no code was read (``Candidate``): `{"polygon", "angle", "inverted"}`.
public struct CandidateRecord: Sendable, Equatable {
    /// Quadrilateral in pixels of the upright image, clockwise from the top-left corner.
    public var polygon: [Point]
    /// Direction across the bars in whole degrees, −90 ..< 90 (0: upright bars).
    public var angle: Int
    /// Light bars on a dark ground.
    public var inverted: Bool
    /// Coherent with the edges of most of a symbol (``Candidate/isStrong``): named in the warning.
    public var isStrong: Bool

    public init(polygon: [Point], angle: Int, inverted: Bool, isStrong: Bool) {
        self.polygon = polygon
        self.angle = angle
        self.inverted = inverted
        self.isStrong = isStrong
    }

    public init(_ candidate: Candidate) {
        polygon = candidate.polygon
        angle = Int(candidate.angle.rounded())
        inverted = candidate.inverted
        isStrong = candidate.isStrong
    }

    public var json: JSONValue {
        .object(["polygon": JSONValue(polygon: polygon), "angle": .int(angle),
                 "inverted": .bool(inverted)])
    }

    /// For messages: `"top-left 1200,800, 400x300 px"`.
    public var place: String {
        let xs = polygon.map(\.x), ys = polygon.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return "" }
        return "top-left \(minX),\(minY), \(maxX - minX + 1)x\(maxY - minY + 1) px"
    }
}
