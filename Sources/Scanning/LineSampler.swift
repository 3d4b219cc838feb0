// SPDX-License-Identifier: Apache-2.0
import Imaging

/// Bilinear samples of an image along parallel lines: the geometry that the candidate map's walk
/// along the bars (``CandidateMap/barLength(in:around:angle:enough:)``) and the template decoder's
/// profiles (``EANTemplateDecoder/readings(in:around:margin:error:light:middle:registers:)``) share.
///
/// A line runs along the unit direction (`dx`, `dy`) (across the bars) through the point `offset`
/// pixels from the centre (`cx`, `cy`) in the perpendicular direction (along the bars): sample
/// `i` of `count` is at `t = i − half` pixels along it. Coordinates are pixels of `image`
/// (origin top-left, x right, y down; pixel centres at integers).
struct LineSampler {
    let image: LuminanceImage
    let cx: Double, cy: Double, dx: Double, dy: Double
    let half: Double
    let count: Int
    /// The value of a sample whose 2×2 neighbourhood leaves the image; `nil`: the nearest edge
    /// pixels' (the image must be at least 2×2).
    let outside: Double?

    func line(_ offset: Double) -> [Double] {
        let ox = cx - dy * offset, oy = cy + dx * offset
        let width = image.width, height = image.height
        return [Double](unsafeUninitializedCapacity: count) { samples, initialized in
            image.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                for i in 0..<count {
                    let t = Double(i) - half
                    let x = ox + t * dx, y = oy + t * dy
                    var x0 = Self.floor(x), y0 = Self.floor(y)
                    var fx = x - Double(x0), fy = y - Double(y0)
                    if x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height {
                        if let outside { samples[i] = outside; continue }
                        x0 = min(max(x0, 0), width - 2); y0 = min(max(y0, 0), height - 2)
                        fx = min(max(x - Double(x0), 0), 1); fy = min(max(y - Double(y0), 0), 1)
                    }
                    let k = y0 * width + x0
                    let top = Double(bytes[k]) * (1 - fx) + Double(bytes[k + 1]) * fx
                    let bottom = Double(bytes[k + width]) * (1 - fx) + Double(bytes[k + width + 1]) * fx
                    samples[i] = top * (1 - fy) + bottom * fy
                }
            }
            initialized = count
        }
    }

    /// `⌊v⌋` for coordinates well inside `Int`'s range, without a call to libm's `floor` (the
    /// baseline x86-64 target has no rounding instruction): truncation, less one below zero.
    @inline(__always) static func floor(_ v: Double) -> Int {
        let truncated = Int(v)
        return Double(truncated) > v ? truncated - 1 : truncated
    }
}
