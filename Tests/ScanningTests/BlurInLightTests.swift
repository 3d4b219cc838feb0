// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
import Imaging
@testable import Scanning
import TestSupport

/// Defocus happens in light and the camera encodes it afterwards (TestImages/blur-light: photos
/// of Bench/make_blur_world.py, disk blur of 1 module at 1.5–2.8 px per module, cropped): the
/// symbol fit in light, the fit of sharpened bars, and the widths deciding 1↔7 / 2↔8.
@Suite struct BlurInLightTests {
    static let folder = "\(testImages)/blur-light"

    /// The only barcode-like region of `file`.
    static func region(_ image: LuminanceImage) throws -> Candidate {
        try #require(CandidateMap.find(in: image).first)
    }

    /// The model of the blur (linear in the modules' darkness) holds in light: the same pixels
    /// fitted in light leave less error and set the best code further apart from the next.
    @Test func theSymbolFitsDefocusBetterInLightThanInPixelValues() throws {
        let image = try ImageLoader.load(path: "\(Self.folder)/disk-r1-light.jpg").image
        let candidate = try Self.region(image)
        let encoded = try #require(EANTemplateDecoder.readings(in: image, around: candidate, margin: 40, error: 0.02,
                                                               light: .pixelValues).first { $0.band == 0 }?.0)
        let light = EANTemplateDecoder.readings(in: image, around: candidate, margin: 40, error: 0.02, light: .linear)
        let whole = try #require(light.first { $0.band == 0 }?.0)
        #expect(whole.digits.map(String.init).joined() == "9783062783913")
        #expect(whole.margin >= 40 && whole.error <= 0.02)
        #expect(whole.error < encoded.error * 0.8)
        #expect(whole.margin > encoded.margin * 1.2)
        #expect(MultiPassDecoder.templateSymbols(image, around: candidate).map(\.data) == ["9783062783913"])
        #expect(MultiPassDecoder.templateSymbols(image, around: candidate).map(\.measurement) == [.symbolFit])
        let report = try #require(FileScanner().scanFile(path: "\(Self.folder)/disk-r1-light.jpg").report)
        #expect(report.isbns.map(\.isbn13) == ["9783062783913"])
    }

    /// Camera sharpening steepens the edges of defocused bars; a region that is clearly a
    /// barcode still gets the fit.
    @Test func aSharpenedBarcodeLikeRegionIsStillFitted() throws {
        let image = try ImageLoader.load(path: "\(Self.folder)/disk-r1-sharpened.jpg").image
        let candidate = try Self.region(image)
        #expect(candidate.hasSharpEdges && candidate.isStrong)
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: "\(Self.folder)/disk-r1-sharpened.jpg").report)
            #expect(report.isbns.map(\.isbn13) == ["9786706204591"], "\(effort)")
        }
    }

    /// zbar's passes read 9180682370804 (7→1, 2→8, 8→2, 2→8) on the same pixels three times; the
    /// fit of the symbol reads 9780628370204 once. Only the fit measures widths: it decides.
    @Test func theWidthsDecideBetweenCodesThatDifferOnlyInBarWidths() throws {
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: "\(Self.folder)/disk-r1-ambiguous.jpg").report)
            #expect(report.isbns.map(\.isbn13) == ["9780628370204"], "\(effort)")
            #expect(report.rejected.allSatisfy { $0.verdict.rejection?.reason == .misread }, "\(effort)")
        }
    }

    /// A grey label at 1.5 modules of defocus: its stretches of thin bars, blurred, are as light as
    /// the paper, and the first light stretch walking out from the middle is inside the symbol.
    /// The quiet zones' flatness finds the ends.
    @Test func theQuietZonesAreFoundByTheirFlatness() throws {
        let path = "\(Self.folder)/disk-r1.5-flat-quiet-zones.jpg"
        let image = try ImageLoader.load(path: path).image
        let candidate = try Self.region(image)
        #expect(MultiPassDecoder.templateSymbols(image, around: candidate).map(\.data) == ["9789989950711"])
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: path).report)
            #expect(report.isbns.map(\.isbn13) == ["9789989950711"], "\(effort)")
        }
    }

    /// A region that takes in the digits under the bars: along the map's direction of its bars, the
    /// mean of all its lines fits no symbol well, its outer lines differ from the middle ones, and
    /// the middle lines on their own read the code, confirmed by each half of them. Along the
    /// direction measured from the bars themselves (``EANTemplateDecoder/refinedAngle(in:around:)``)
    /// the whole region reads it too.
    @Test func theMiddleLinesReadWhereTheRegionReachesPastTheBars() throws {
        let path = "\(Self.folder)/disk-r1.5-digits-in-region.jpg"
        let image = try ImageLoader.load(path: path).image
        let candidate = try Self.region(image)
        let policy = DecodingPolicy()
        for light in [EANTemplateDecoder.Light.pixelValues, .linear] {
            let whole = EANTemplateDecoder.readings(in: image, around: candidate, margin: policy.templateMargin,
                                                    error: policy.templateError, light: light, middle: false)
            #expect(!whole.contains { $0.0.margin >= policy.templateMargin && $0.0.error <= policy.templateError }, "\(light)")
        }
        let middle = [EANTemplateDecoder.Light.pixelValues, .linear].map { light in
            EANTemplateDecoder.readings(in: image, around: candidate, margin: policy.templateMargin,
                                        error: policy.templateError, light: light, middle: true)
                .map { $0.0.digits.map(String.init).joined() }
        }
        #expect(middle.contains { (2...3).contains($0.count) && Set($0) == ["9784802917247"] }, "\(middle)")
        #expect(MultiPassDecoder.templateSymbols(image, around: candidate, middle: false).map(\.data) == ["9784802917247"])
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: path).report)
            #expect(report.isbns.map(\.isbn13) == ["9784802917247"], "\(effort)")
        }
    }

    /// zbar reads a product code from half of a defocused ISBN on 33 lines, and every recovery
    /// pass reads it again on the same pixels; no measurement of the widths confirms it. The fit
    /// of the symbol runs although repetition would have settled the place, and decides it.
    @Test func aProductCodeOnlyEdgeDecodersReadYieldsToTheFit() throws {
        let path = "\(Self.folder)/disk-r1-product-misread.jpg"
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: path).report)
            #expect(report.isbns.map(\.isbn13) == ["9789755502908"], "\(effort)")
            #expect(report.rejected.map(\.symbol.data) == ["0080100002821"], "\(effort)")
            #expect(report.rejected.first?.verdict.rejection?.reason == .misread, "\(effort)")
            #expect(report.rejected.first?.misreadOf == "9789755502908", "\(effort)")
        }
    }
}
