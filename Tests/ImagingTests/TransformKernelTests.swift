// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import Imaging

/// The recovery passes' kernels after their speed-up (issue 10) compute what they did.
@Suite struct TransformKernelTests {
    static func noise(_ width: Int, _ height: Int, seed: UInt32) -> LuminanceImage {
        var state = seed
        return LuminanceImage(width: width, height: height, pixels: (0..<(width * height)).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        })
    }

    /// The blur divides by multiplying with a reciprocal: the same values as integer division.
    @Test(arguments: [1.0, 2.5, 4.0, 9.0])
    func gaussianBlurDividesExactly(sigma: Double) {
        let image = Self.noise(97, 61, seed: 3)
        let radius = max(1, Int(((4 * sigma * sigma + 1).squareRoot() - 1) / 2 + 0.5))
        let (w, h) = (image.width, image.height)
        var a = image.pixels.map(Int32.init)
        var b = a
        let box = Int32(2 * radius + 1)
        for _ in 0..<3 {
            for y in 0..<h {
                for x in 0..<w {
                    var sum: Int32 = 0
                    for j in -radius...radius { sum += a[y * w + min(max(x + j, 0), w - 1)] }
                    b[y * w + x] = (sum + box / 2) / box
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    var sum: Int32 = 0
                    for j in -radius...radius { sum += b[min(max(y + j, 0), h - 1) * w + x] }
                    a[y * w + x] = (sum + box / 2) / box
                }
            }
        }
        #expect(image.gaussianBlurred(sigma: sigma).values == a)
        // Shared by two amounts, the blur gives what each unsharp mask gives alone.
        let blur = image.gaussianBlurred(sigma: sigma)
        #expect(image.unsharpMasked(by: blur, amount: 3).pixels == image.unsharpMasked(sigma: sigma, amount: 3).pixels)
    }

    /// Rotation computes each source point inline: the same pixels as sampling each one through
    /// the inverse map, within one level where the bilinear value is a half (a quarter turn
    /// lands on many).
    @Test(arguments: [30.0, -30, 45, 90])
    func rotationMatchesPointByPointSampling(degrees: Double) {
        let image = Self.noise(83, 57, seed: 11)
        let (turned, toSource) = image.rotated(degrees: degrees)
        let reference = image.resampled(width: turned.width, height: turned.height, toSource)
        let a = turned.pixels, b = reference.pixels
        #expect(a.count == b.count)
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(zip(a, b).filter { $0 != $1 }.count * 20 <= a.count)
    }
}
