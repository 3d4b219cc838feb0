// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging
import TestSupport
@testable import Scanning

/// One options type for the decoder's thresholds (issue 16 part 1): the defaults are the numbers
/// the decoder always used, and a changed field changes what the decoder does.
@Suite struct DecodingPolicyTests {
    @Test func theDefaultsAreTheDecodersNumbers() {
        let policy = DecodingPolicy()
        #expect(policy.effort == .normal && policy.confirmations == 2)
        #expect(policy.previewAbovePixels == 1_500_000 && policy.halfSizeAbovePixels == 4_000_000)
        #expect(policy.mapAtHalfSizeAbovePixels == 1_000_000 && policy.maximumAreas == 4 && policy.maximumPlaces == 32)
        #expect(policy.firstLookLines == 100 && policy.recoveryLines == 600 && policy.focusedRecoveryLines == 300)
        #expect(policy.templateMargin == 40 && policy.templateError == 0.02)
        #expect(policy.areaMargin == 32 && policy.halfPassMinimumSide == 300 && policy.quarterPassMinimumSide == 1200)
        #expect(policy.rotateAtHalfSizeAbovePixels == 2_000_000 && policy.upscaleUpToPixels == 4_000_000)
        // One line in 100 of the shorter side; no sparse scan under 200 pixels.
        #expect(policy.firstLookStep(width: 4000, height: 3000) == 30)
        #expect(policy.firstLookStep(width: 199, height: 1000) == 1)
    }

    @Test func theEffortInitializersBuildAPolicy() {
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .thorough, confirmations: 3)
        #expect(decoder.policy == DecodingPolicy(effort: .thorough, confirmations: 3))
        #expect(decoder.effort == .thorough && decoder.confirmations == 3)
        // Fewer than one confirmation means one.
        #expect(MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy(confirmations: 0)).confirmations == 1)
        #expect(FileScanner(effort: .fast).policy == DecodingPolicy(effort: .fast))
    }

    /// The defocused barcode only the structure fit reads: a stricter margin, or no barcode-like
    /// region looked at, and it reads as nothing.
    @Test func aChangedThresholdChangesTheReading() {
        let image = BlurredEAN13.picture("9781593279288", module: 2, radius: 4, seed: 7)
        let read = MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy()).decode(image)
        #expect(read.isbns.map(\.isbn13) == ["9781593279288"])
        var strict = DecodingPolicy()
        strict.templateMargin = 1e12
        #expect(MultiPassDecoder(scanner: BarcodeScanner(), policy: strict).decode(image).codes.isEmpty)
        var blind = DecodingPolicy()
        blind.maximumAreas = 0
        #expect(MultiPassDecoder(scanner: BarcodeScanner(), policy: blind).decode(image).codes.isEmpty)
    }

    /// ``FileScanner`` takes its preview threshold from the policy: with none, even a small JPEG
    /// gets its first look from a half-size decode.
    @Test func thePreviewThresholdDecidesTheHalfSizeLook() throws {
        let path = "\(testImages)/exif/orientation-1.jpg"
        let full = try #require(FileScanner().scanFile(path: path).report)
        #expect(full.isbns.map(\.isbn13) == ["9780262033848"])
        #expect(full.codes.map(\.symbol.pass) == [.full])
        var policy = DecodingPolicy()
        policy.previewAbovePixels = 0
        let preview = try #require(FileScanner(policy: policy).scanFile(path: path).report)
        #expect(preview.isbns.map(\.isbn13) == ["9780262033848"])
        #expect(preview.codes.map(\.symbol.pass) == [.preview])
    }

    /// The sizes that decide the scaled and turned recovery passes are the policy's: a changed
    /// field adds or drops the `half`, `quarter` and `upscale-2` passes.
    @Test func theScaledPassesFollowThePolicy() {
        func names(_ effort: Effort, _ width: Int, _ height: Int, _ change: (inout DecodingPolicy) -> Void = { _ in }) -> [String] {
            var policy = DecodingPolicy()
            change(&policy)
            return MultiPassDecoder.passes(for: effort, width: width, height: height, policy: policy).map(\.name.rawValue)
        }
        let normal = names(.normal, 1000, 800)
        #expect(normal.contains("half") && !normal.contains("quarter"))
        #expect(!names(.normal, 1000, 800) { $0.halfPassMinimumSide = 801 }.contains("half"))
        #expect(names(.normal, 1000, 800) { $0.quarterPassMinimumSide = 800 }.contains("quarter"))
        #expect(names(.normal, 1000, 800) == MultiPassDecoder.passes(for: .normal, width: 1000, height: 800).map(\.name.rawValue))
        #expect(names(.thorough, 2000, 2000).contains("upscale-2"))
        #expect(!names(.thorough, 2000, 2000) { $0.upscaleUpToPixels = 3_999_999 }.contains("upscale-2"))
    }

    /// A turned pass halves the crop above ``DecodingPolicy/rotateAtHalfSizeAbovePixels``: its
    /// canvas is half as wide, and the polygon still maps back to the crop's pixels.
    @Test func theRotationHalvesAboveThePolicysSize() throws {
        let image = LuminanceImage(width: 400, height: 300, filledWith: 200)
        func turned(_ change: (inout DecodingPolicy) -> Void) throws -> (LuminanceImage, (Double, Double) -> (Double, Double)) {
            var policy = DecodingPolicy()
            change(&policy)
            let pass = try #require(MultiPassDecoder.passes(for: .normal, width: 400, height: 300, policy: policy)
                .first { $0.name == "rotate+30" })
            return pass.apply(image)
        }
        let (whole, _) = try turned { _ in }
        let (halved, toCrop) = try turned { $0.rotateAtHalfSizeAbovePixels = 400 * 300 - 1 }
        #expect(abs(halved.width * 2 - whole.width) <= 2 && abs(halved.height * 2 - whole.height) <= 2,
                "\(halved.width)×\(halved.height) against \(whole.width)×\(whole.height)")
        let (x, y) = toCrop(Double(halved.width - 1) / 2, Double(halved.height - 1) / 2)
        #expect(abs(x - 199.5) <= 2 && abs(y - 149.5) <= 2, "the centre maps to (\(x), \(y))")
    }

    /// The area searched around a barcode-like region is widened across its bars by half its
    /// longer side plus ``DecodingPolicy/areaMargin``, and along them by that margin alone (bars
    /// upright or lying flat), or by both on every side (bars turned 15–75°).
    @Test func theAreaMarginIsThePolicys() {
        func region(angle: Double) -> Candidate {
            Candidate(rect: PixelRect(x: 400, y: 300, width: 100, height: 60), angle: angle, inverted: false, blocks: 20,
                      coherence: 0.95)
        }
        let rect = PixelRect(x: 0, y: 0, width: 1000, height: 1000)
        // Upright bars (read along rows): 50 + 32 left and right, 32 above and below.
        #expect(MultiPassDecoder.areas([region(angle: 4)], within: rect).map(\.rect)
                == [PixelRect(x: 400 - 82, y: 300 - 32, width: 100 + 164, height: 60 + 64)])
        #expect(MultiPassDecoder.areas([region(angle: 4)], within: rect, margin: 0).map(\.rect)
                == [PixelRect(x: 350, y: 300, width: 200, height: 60)])
        // Bars lying flat (read along columns): the other way round.
        #expect(MultiPassDecoder.areas([region(angle: -88)], within: rect).map(\.rect)
                == [PixelRect(x: 400 - 32, y: 300 - 82, width: 100 + 64, height: 60 + 164)])
        // Turned bars: on every side.
        #expect(MultiPassDecoder.areas([region(angle: 40)], within: rect).map(\.rect)
                == [PixelRect(x: 400 - 82, y: 300 - 82, width: 100 + 164, height: 60 + 164)])
        // Overlapping areas are one: their bounding box.
        var below = region(angle: 0)
        below.rect.y = 380
        #expect(MultiPassDecoder.areas([region(angle: 0), below], within: rect).map(\.rect)
                == [PixelRect(x: 400 - 82, y: 300 - 32, width: 100 + 164, height: 380 + 60 + 32 - 268)])
        below.rect.y = 460
        #expect(MultiPassDecoder.areas([region(angle: 0), below], within: rect).count == 2)
    }
}
