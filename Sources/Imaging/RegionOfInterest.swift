// SPDX-License-Identifier: Apache-2.0
/// The part of the upright image to scan, in normalized coordinates 0…1: origin at the
/// top-left, x to the right, y down; `width` and `height` are fractions of the image size.
///
/// This is the detection frame of the classic iOS reader before it is rotated for
/// AVFoundation: `RegionOfInterest(x: 0.05, y: 0.4, width: 0.9, height: 0.15)` is a band
/// across the middle (``band``). For the rotated form that `AVCaptureMetadataOutput.
/// rectOfInterest` takes, use ``init(avFoundationX:y:width:height:)``.
public struct RegionOfInterest: Hashable, Sendable, CustomStringConvertible {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    /// The whole image (AVFoundation's default `rectOfInterest`).
    public static let full = try! RegionOfInterest(x: 0, y: 0, width: 1, height: 1)
    /// The iOS reader's detection band: x 0.05, y 0.4, width 0.9, height 0.15.
    public static let band = try! RegionOfInterest(x: 0.05, y: 0.4, width: 0.9, height: 0.15)

    /// Tolerance for sums such as x + width that land a rounding error past 1.
    static let epsilon = 1e-9
    /// The smallest width or height accepted, as a fraction of the image side.
    public static let minimumSide = 0.001

    /// - Throws: ``RegionError`` naming the first value that is not a finite number in 0…1,
    ///   a zero size, or an edge past 1 (`x + width > 1`, `y + height > 1`).
    public init(x: Double, y: Double, width: Double, height: Double) throws(RegionError) {
        for (name, value) in [("x", x), ("y", y), ("width", width), ("height", height)] {
            guard value.isFinite, value >= 0, value <= 1 else { throw .outOfRange(name: name, value: value) }
        }
        // 0.001 of a side: a region thinner than that holds no barcode in any real picture,
        // and a value like 1e-300 is a typo, not a wish.
        guard width >= Self.minimumSide else { throw .zeroSize(name: "width") }
        guard height >= Self.minimumSide else { throw .zeroSize(name: "height") }
        guard x + width <= 1 + Self.epsilon else { throw .pastEdge(sum: "x+width", value: x + width) }
        guard y + height <= 1 + Self.epsilon else { throw .pastEdge(sum: "y+height", value: y + height) }
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The region given as `AVCaptureMetadataOutput.rectOfInterest`, whose space is the
    /// upright picture turned 90° (landscape sensor space). The iOS reader passes its upright
    /// frame (x, y, w, h) as `CGRect(x: y, y: 1-x-w, width: h, height: w)`; this undoes that:
    /// upright x = 1 - avY - avHeight, y = avX, width = avHeight, height = avWidth.
    ///
    /// - Throws: ``RegionError`` as ``init(x:y:width:height:)``, checked on the AVFoundation
    ///   values as given (names prefixed `rectOfInterest.`) and then on the result.
    public init(avFoundationX ax: Double, y ay: Double, width aw: Double, height ah: Double) throws(RegionError) {
        do {
            _ = try RegionOfInterest(x: ax, y: ay, width: aw, height: ah)
        } catch {
            throw error.renamed(prefix: "rectOfInterest.")
        }
        try self.init(x: max(0, 1 - ay - ah), y: ax, width: ah, height: aw)
    }

    /// Parses `"x,y,w,h"` (four numbers, optional spaces), upright form. Each number is a
    /// fraction 0…1, or a percentage 0%…100% when it ends in `%` (`5%,40%,90%,15%` is ``band``);
    /// a number above 1 without `%` is refused, as it may as well be meant as pixels, and so is
    /// a region mixing fractions and percentages (`5%,0.4,90%,15%`: is 0.4 meant as 0.4%?),
    /// a bare 0 going with either.
    public init(parsing text: String) throws(RegionError) {
        let values = try Self.fourNumbers(text)
        try self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// Parses `"x,y,w,h"` as an AVFoundation `rectOfInterest` (errors name its values
    /// `rectOfInterest.x` …, as ``init(avFoundationX:y:width:height:)``'s do).
    public init(parsingAVFoundation text: String) throws(RegionError) {
        let values: [Double]
        do { values = try Self.fourNumbers(text) } catch { throw error.renamed(prefix: "rectOfInterest.") }
        try self.init(avFoundationX: values[0], y: values[1], width: values[2], height: values[3])
    }

    static func fourNumbers(_ text: String) throws(RegionError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { throw .notFourNumbers(text) }
        var values: [Double] = []
        var percentages = false, fractions = false
        for (name, part) in zip(["x", "y", "width", "height"], parts) {
            let trimmed = part.trimmingCharacters(in: " ")
            let percent = trimmed.hasSuffix("%")
            let number = percent ? trimmed.dropLast().trimmingCharacters(in: " ") : trimmed
            guard let value = Double(number), value.isFinite else { throw .notANumber(name: name, text: String(trimmed)) }
            if percent {
                guard value >= 0, value <= 100 else { throw .percentOutOfRange(name: name, text: String(trimmed)) }
                percentages = true
            } else if value != 0 {
                fractions = true
            }
            // For a whole n, n / 100 is the double nearest n hundredths (IEEE division is
            // correctly rounded): 5% is exactly the 0.05 that "0.05" parses to. -0 and -0% are 0,
            // so the region never prints as -0.0.
            values.append(value == 0 ? 0 : percent ? value / 100 : value)
        }
        if percentages && fractions { throw .mixed(text) }
        return values
    }

    /// Whether this is the whole image.
    public var isFull: Bool { self == .full }

    /// The pixels this region covers in a `imageWidth`×`imageHeight` image: edges rounded to
    /// the nearest pixel boundary (so 0.05 and 1-0.05-0.9 select the same column), at least
    /// 1×1, inside the image.
    public func pixelRect(imageWidth: Int, imageHeight: Int) -> PixelRect {
        func edge(_ fraction: Double, _ size: Int) -> Int {
            min(max(Int((fraction * Double(size)).rounded()), 0), size)
        }
        var x0 = edge(x, imageWidth), x1 = edge(x + width, imageWidth)
        var y0 = edge(y, imageHeight), y1 = edge(y + height, imageHeight)
        if x1 <= x0 { x1 = min(x0 + 1, imageWidth); x0 = x1 - 1 }
        if y1 <= y0 { y1 = min(y0 + 1, imageHeight); y0 = y1 - 1 }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "\(x),\(y),\(width),\(height)" }
}

/// A region of interest that cannot be used; each case names the value at fault.
public enum RegionError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFourNumbers(String)
    case notANumber(name: String, text: String)
    case outOfRange(name: String, value: Double)
    /// A percentage outside 0%…100%, as typed (`150%`).
    case percentOutOfRange(name: String, text: String)
    /// Fractions and percentages in one region, as typed.
    case mixed(String)
    case zeroSize(name: String)
    case pastEdge(sum: String, value: Double)

    public var description: String {
        switch self {
        case .notFourNumbers(let text): return "expected four numbers x,y,width,height, got '\(text)'"
        case .notANumber(let name, let text): return "\(name) '\(text)' is not a number"
        case .outOfRange(let name, let value): return "\(name) \(value) is outside 0...1"
        case .percentOutOfRange(let name, let text): return "\(name) \(text) is outside 0%...100%"
        case .mixed(let text): return "'\(text)' mixes fractions and percentages; give all four as one or the other"
        case .zeroSize(let name): return "\(name) must be at least \(RegionOfInterest.minimumSide)"
        case .pastEdge(let sum, let value): return "\(sum) is \(value), past the image edge at 1"
        }
    }

    func renamed(prefix: String) -> RegionError {
        switch self {
        case .notANumber(let name, let text): return .notANumber(name: prefix + name, text: text)
        case .outOfRange(let name, let value): return .outOfRange(name: prefix + name, value: value)
        case .percentOutOfRange(let name, let text): return .percentOutOfRange(name: prefix + name, text: text)
        case .zeroSize(let name): return .zeroSize(name: prefix + name)
        case .pastEdge(let sum, let value):
            return .pastEdge(sum: sum.split(separator: "+").map { prefix + $0 }.joined(separator: "+"), value: value)
        case .notFourNumbers, .mixed: return self
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return s
    }
}
