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
        #expect(policy.mapAtHalfSizeAbovePixels == 1_000_000 && policy.maximumAreas == 4)
        #expect(policy.firstLookLines == 100 && policy.recoveryLines == 600 && policy.focusedRecoveryLines == 300)
        #expect(policy.templateMargin == 40 && policy.templateError == 0.02)
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
}
