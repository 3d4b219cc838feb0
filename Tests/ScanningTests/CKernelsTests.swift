// SPDX-License-Identifier: Apache-2.0
import CKernels
import Foundation
import Imaging
@testable import Scanning
import Testing

/// The C kernel of the barcode map (SSE2 blocks, scalar edges) against the sums written out
/// one cell at a time, as CandidateMap defined them before the kernel.
@Suite struct BlockSumsTests {
    struct Sums: Equatable { var sxx = 0, syy = 0, sxy = 0, sumAbs = 0, n = 0, luminance = 0 }

    static func reference(_ pixels: [UInt8], width: Int, height: Int, x0: Int, y0: Int, columns: Int, rows: Int,
                          block: Int) -> [Sums] {
        var out = [Sums](repeating: Sums(), count: columns * rows)
        for by in 0..<rows {
            for dy in stride(from: 0, to: block, by: 2) {
                let y = y0 + by * block + dy
                guard y + 1 < height else { continue }
                for bx in 0..<columns {
                    let x = x0 + bx * block
                    let count = min(block, width - 1 - x)
                    guard count > 0 else { continue }
                    for i in x..<(x + count) {
                        let here = Int(pixels[y * width + i]), right = Int(pixels[y * width + i + 1])
                        let below = Int(pixels[(y + 1) * width + i]), diagonal = Int(pixels[(y + 1) * width + i + 1])
                        let gx = (right + diagonal - here - below) / 2, gy = (below + diagonal - here - right) / 2
                        out[by * columns + bx].sxx += gx * gx
                        out[by * columns + bx].syy += gy * gy
                        out[by * columns + bx].sxy += gx * gy
                        out[by * columns + bx].sumAbs += abs(gx) + abs(gy)
                        out[by * columns + bx].luminance += here
                    }
                    out[by * columns + bx].n += count
                }
            }
        }
        return out
    }

    static func kernel(_ pixels: [UInt8], width: Int, height: Int, x0: Int, y0: Int, columns: Int, rows: Int,
                       block: Int) -> [Sums] {
        var sums = [isc_block_sums](repeating: isc_block_sums(), count: columns * rows)
        pixels.withUnsafeBufferPointer { p in
            sums.withUnsafeMutableBufferPointer { out in
                isc_block_gradient_sums(p.baseAddress, Int32(width), Int32(height), Int32(x0), Int32(y0), Int32(columns),
                                        Int32(rows), Int32(block), out.baseAddress)
            }
        }
        return sums.map { Sums(sxx: Int($0.sxx), syy: Int($0.syy), sxy: Int($0.sxy), sumAbs: Int($0.sum_abs), n: Int($0.n),
                               luminance: Int($0.luminance)) }
    }

    @Test(arguments: [(64, 48, 0, 0, 16), (67, 51, 3, 1, 16), (200, 33, 5, 2, 16), (40, 40, 0, 0, 8), (33, 17, 0, 0, 16)])
    func theKernelSumsWhatTheCellsSum(width: Int, height: Int, x0: Int, y0: Int, block: Int) {
        // Extremes (0 and 255 side by side: the largest gradients, negative ones truncated toward
        // zero) and random pixels.
        var generator = SystemRandomNumberGenerator()
        for pattern in 0..<3 {
            let pixels = (0..<(width * height)).map { k -> UInt8 in
                switch pattern {
                case 0: return (k / 3 + k / width) % 2 == 0 ? 0 : 255
                case 1: return UInt8(truncatingIfNeeded: k * 37 + (k / width) * 11)
                default: return UInt8.random(in: 0...255, using: &generator)
                }
            }
            let columns = (width - x0) / block, rows = (height - y0) / block
            let expected = Self.reference(pixels, width: width, height: height, x0: x0, y0: y0, columns: columns, rows: rows, block: block)
            #expect(Self.kernel(pixels, width: width, height: height, x0: x0, y0: y0, columns: columns, rows: rows, block: block) == expected)
            #expect(expected.contains { $0.n > 0 && $0.sxx > 0 })
        }
    }
}

/// The bar-length walk's profile in single precision (CKernels) against the same sums in double
/// precision through ``LineSampler``, as CandidateMap computed it before the kernel.
@Suite struct BarProfileTests {
    static func reference(_ image: LuminanceImage, cx: Double, cy: Double, dx: Double, dy: Double, half: Double, count: Int,
                          offset: Double, window: Int) -> [Double] {
        let sampler = LineSampler(image: image, cx: cx, cy: cy, dx: dx, dy: dy, half: half, count: count, outside: 128)
        var sum = [Double](repeating: 0, count: count)
        for d in -2...2 {
            let l = sampler.line(offset + Double(d))
            for k in 0..<count { sum[k] += l[k] }
        }
        var prefix = [Double](repeating: 0, count: count + 1)
        for k in 0..<count { prefix[k + 1] = prefix[k] + sum[k] }
        return (0..<count).map { k in
            let lo = max(0, k - window), hi = min(count, k + window + 1)
            return sum[k] - (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
    }

    /// Random pixels, lines at several angles, partly outside the image (128 there), odd counts.
    @Test(arguments: [0.0, 3.5, -41, 89.9, 137])
    func theKernelsProfileIsTheDoublePrecisionOne(degrees: Double) {
        var generator = SystemRandomNumberGenerator()
        let image = LuminanceImage(width: 203, height: 151, pixels: (0..<(203 * 151)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let (dx, dy) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        for (cx, cy, half, offset) in [(101.5, 75.0, 60.0, 0.0), (30.2, 20.7, 90.0, -13.3), (180.0, 140.0, 45.5, 7.75)] {
            let count = Int(2 * half) + 1
            let expected = Self.reference(image, cx: cx, cy: cy, dx: dx, dy: dy, half: half, count: count, offset: offset, window: 7)
            var scratch = [Double](repeating: 0, count: count + 1), out = [Double](repeating: .nan, count: count)
            image.withUnsafeBytes { raw in
                isc_bar_profile(raw.bindMemory(to: UInt8.self).baseAddress, Int32(image.width), Int32(image.height), cx, cy, dx, dy,
                                half, Int32(count), offset, 7, &scratch, &out)
            }
            let worst = zip(out, expected).map { abs($0 - $1) }.max() ?? .nan
            #expect(worst < 0.01, "largest difference \(worst) at \(degrees)°, centre (\(cx), \(cy))")
            #expect(expected.contains { abs($0) > 50 })
        }
    }

    /// An image without a 2×2 neighbourhood anywhere (a row, a column): every sample is outside,
    /// so the profile is flat, and nothing is read past the pixels.
    @Test(arguments: [(8, 1), (1, 8), (1, 1)])
    func anImageOnePixelHighOrWideGivesAFlatProfile(width: Int, height: Int) {
        let image = LuminanceImage(width: width, height: height, filledWith: 100)
        var scratch = [Double](repeating: 0, count: 6), out = [Double](repeating: .nan, count: 5)
        image.withUnsafeBytes { raw in
            isc_bar_profile(raw.bindMemory(to: UInt8.self).baseAddress, Int32(width), Int32(height), 0, 0, 1, 0, 2, 5, 0, 1,
                            &scratch, &out)
        }
        #expect(out == [0, 0, 0, 0, 0])
    }
}
