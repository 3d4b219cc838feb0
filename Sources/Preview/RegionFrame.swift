// SPDX-License-Identifier: Apache-2.0
import Imaging
import Scanning

/// The red frame drawn around the region of interest, like the iOS reader's detection band
/// (a `CALayer` border of 4 pt with a corner radius of 6 pt on a screen about 390 pt wide):
/// a border inside the region's rectangle, its outer edge on the region's edges, with rounded
/// corners, both in proportion to the frame's width.
///
/// Coordinates are frame pixels, origin top-left, x right, y down.
public struct RegionFrame: Sendable, Equatable {
    /// The region scanned, in frame pixels.
    public var rect: PixelRect
    /// Border width in pixels: `max(2, frameWidth × 4 / 390)` rounded.
    public var thickness: Int
    /// Outer corner radius in pixels: `max(3, frameWidth × 6 / 390)` rounded.
    public var radius: Int

    public init(rect: PixelRect, frameWidth: Int) {
        self.rect = rect
        let scale = Double(frameWidth) / 390
        thickness = min(max(2, Int((4 * scale).rounded())), max(1, min(rect.width, rect.height) / 2))
        radius = max(3, Int((6 * scale).rounded()))
    }

    /// Whether pixel (`x`, `y`) (its centre at +0.5) is painted: inside the outer rounded
    /// rectangle and outside the inner one (inset by ``thickness``, radius reduced by as much).
    public func contains(x: Int, y: Int) -> Bool {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let outer = (x0: Double(rect.x), y0: Double(rect.y), x1: Double(rect.x + rect.width), y1: Double(rect.y + rect.height))
        guard Self.inside(px, py, outer, radius: Double(radius)) else { return false }
        let t = Double(thickness)
        let inner = (x0: outer.x0 + t, y0: outer.y0 + t, x1: outer.x1 - t, y1: outer.y1 - t)
        guard inner.x0 < inner.x1, inner.y0 < inner.y1 else { return true }
        return !Self.inside(px, py, inner, radius: max(0, Double(radius) - t))
    }

    /// The square at each corner where the border is curved: pixels there need
    /// ``contains(x:y:)``; elsewhere the border is four straight bars.
    var cornerSize: Int { min(max(radius, thickness), rect.width / 2, rect.height / 2) }

    static func inside(_ x: Double, _ y: Double, _ r: (x0: Double, y0: Double, x1: Double, y1: Double), radius: Double) -> Bool {
        guard x >= r.x0, x <= r.x1, y >= r.y0, y <= r.y1 else { return false }
        let rad = min(radius, (r.x1 - r.x0) / 2, (r.y1 - r.y0) / 2)
        guard rad > 0 else { return true }
        let cx = x < r.x0 + rad ? r.x0 + rad : (x > r.x1 - rad ? r.x1 - rad : x)
        let cy = y < r.y0 + rad ? r.y0 + rad : (y > r.y1 - rad ? r.y1 - rad : y)
        let dx = x - cx, dy = y - cy
        return dx * dx + dy * dy <= rad * rad
    }
}
