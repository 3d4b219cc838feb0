// SPDX-License-Identifier: Apache-2.0
/// A point in pixel coordinates of the upright image: origin top-left, x right, y down.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
    public var description: String { "(\(x),\(y))" }
}

/// A rectangle of whole pixels: origin top-left, `width`×`height` ≥ 1.
///
/// The one rectangle of the toolkit: regions of interest, areas of the search, barcode-like
/// regions and the place of every reading are all `PixelRect`s. A reading's polygon (the
/// `[[x, y]] × 4` of the output) is ``corners``, and ``init(covering:)`` is its inverse.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// The smallest rectangle holding every point (inclusive: a point on the right edge is in
    /// the last column), or `nil` for no points.
    public init?(covering points: some Sequence<Point>) {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard minX <= maxX else { return nil }
        self.init(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The rectangle holding every point in continuous coordinates, each rounded to the
    /// nearest pixel (points mapped back from a rotated or reduced copy of the image).
    public init?(covering points: some Sequence<(x: Double, y: Double)>) {
        self.init(covering: points.lazy.map { Point(x: Int($0.x.rounded()), y: Int($0.y.rounded())) })
    }

    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }
    /// The last column (inside the rectangle).
    public var lastX: Int { x + width - 1 }
    /// The last row (inside the rectangle).
    public var lastY: Int { y + height - 1 }
    /// The middle pixel: halfway between the first and last column and row, rounded toward zero.
    public var center: Point { Point(x: (x + lastX) / 2, y: (y + lastY) / 2) }
    /// The middle in continuous coordinates (the centre of a 2×2 rectangle lies between pixels).
    public var midpoint: (x: Double, y: Double) { (Double(x + lastX) / 2, Double(y + lastY) / 2) }

    /// The four corner pixels clockwise from the top-left: top-left, top-right, bottom-right,
    /// bottom-left (the last column and row are inside).
    public var corners: [Point] {
        [Point(x: x, y: y), Point(x: lastX, y: y), Point(x: lastX, y: lastY), Point(x: x, y: lastY)]
    }

    /// The pixels both rectangles hold, or `nil` when they share none.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// How many pixels both rectangles hold (0 when they share none).
    public func commonArea(_ other: PixelRect) -> Int {
        intersection(other).map { $0.width * $0.height } ?? 0
    }

    /// Whether every pixel of `other` is in this rectangle.
    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// Whether `point` is one of this rectangle's pixels.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.y >= y && point.x < maxX && point.y < maxY
    }

    /// The rectangle moved by `dx`, `dy` pixels.
    public func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle grown by `dx` pixels left and right and `dy` pixels above and below
    /// (shrunk for negative values, never below 1×1).
    public func insetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: max(1, width - 2 * dx), height: max(1, height - 2 * dy))
    }

    /// The same region in an image `factor` times larger (each pixel becomes `factor`×`factor`).
    public func scaled(by factor: Int) -> PixelRect {
        PixelRect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    /// The same region in an image `factor` times smaller, rounded down (a copy that averages
    /// `factor`×`factor` blocks).
    public func reduced(by factor: Int) -> PixelRect {
        PixelRect(x: x / factor, y: y / factor, width: width / factor, height: height / factor)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
}
