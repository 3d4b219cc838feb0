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

    /// `path` gives `isbn` as its only ISBN at `normal` and at `thorough` (read by `pass` alone,
    /// when given), and no ISBN at `fast`.
    static func expectReadBeyondFast(_ path: String, as isbn: String, by pass: PassName? = nil,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(FileScanner(effort: .fast).scanFile(path: path).report?.isbns.isEmpty == true, sourceLocation: sourceLocation)
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: path).report, sourceLocation: sourceLocation)
            #expect(report.isbns.map(\.isbn13) == [isbn], "\(effort)", sourceLocation: sourceLocation)
            if let pass { #expect(report.codes.map(\.symbol.pass) == [pass], "\(effort)", sourceLocation: sourceLocation) }
        }
    }

    /// The only barcode-like region of `file`.
    static func region(_ image: LuminanceImage) throws -> Candidate {
        try #require(CandidateMap.find(in: image).first)
    }

    /// ``region(_:)`` with its direction measured from its bars, as the fit takes it
    /// (``EANTemplateDecoder/refinedAngle(in:around:)``).
    static func refinedRegion(_ image: LuminanceImage) throws -> Candidate {
        var candidate = try region(image)
        candidate.angle = EANTemplateDecoder.refinedAngle(in: image, around: candidate)
        return candidate
    }

    /// The digits of the readings of `candidate` with the default policy's margin and error,
    /// in the image's values and in light (``EANTemplateDecoder/Light``), in that order.
    static func goodReadings(_ image: LuminanceImage, around candidate: Candidate, middle: Bool = true,
                             registers: Bool = true) -> [[String]] {
        let policy = DecodingPolicy()
        return [EANTemplateDecoder.Light.pixelValues, .linear].map { light in
            EANTemplateDecoder.readings(in: image, around: candidate, margin: policy.templateMargin,
                                        error: policy.templateError, light: light, middle: middle, registers: registers)
                .filter { $0.0.margin >= policy.templateMargin && $0.0.error <= policy.templateError }
                .map { $0.0.digits.map(String.init).joined() }
        }
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

    /// A region that takes in the digits under the bars: with the ends guessed from where the
    /// profile changes (``EANTemplateDecoder/activeStretch(_:center:width:)``), the mean of all
    /// its lines reads the code in either light with twice the margin asked, each third of the
    /// lines agreeing, and the middle lines are not asked for.
    @Test func aRegionThatReachesPastTheBarsIsReadFromWhereTheBarsChange() throws {
        let path = "\(Self.folder)/disk-r1.5-digits-in-region.jpg"
        let image = try ImageLoader.load(path: path).image
        let candidate = try Self.region(image)
        let policy = DecodingPolicy()
        for light in [EANTemplateDecoder.Light.pixelValues, .linear] {
            let whole = EANTemplateDecoder.readings(in: image, around: candidate, margin: policy.templateMargin,
                                                    error: policy.templateError, light: light, middle: false,
                                                    registers: false)
            #expect(whole.map(\.band) == [0, 1, 2, 3], "\(light)")
            #expect(Set(whole.map { $0.0.digits.map(String.init).joined() }) == ["9784802917247"], "\(light)")
            #expect(whole.allSatisfy { $0.0.margin >= 2 * policy.templateMargin && $0.0.error <= policy.templateError },
                    "\(light): \(whole.map { ($0.0.margin, $0.0.error) })")
        }
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

/// Disk defocus on the camera-model generator's labels (TestImages/blur-light, from
/// `Bench/make_blur_check.py --seed 211 --only disk`, a tune set): a label seen in perspective,
/// fine bars that only the full-size map sees, and symbols defocused by 1 to 2 modules that
/// only the coarse map finds.
@Suite struct DefocusedLabelTests {
    static let folder = BlurInLightTests.folder

    /// The label is tilted: its module is 1.9 px at the middle and about 15 % narrower at one
    /// end than the mean, 15 % wider at the other. The fit reads it with a perspective no straight
    /// start reaches by small steps.
    @Test func aTiltedLabelIsFittedInPerspective() throws {
        let path = "\(Self.folder)/disk-tilted-label.jpg"
        let image = try ImageLoader.load(path: path).image
        let candidate = try BlurInLightTests.region(image)
        let policy = DecodingPolicy()
        let whole = [EANTemplateDecoder.Light.pixelValues, .linear].compactMap { light in
            EANTemplateDecoder.readings(in: image, around: candidate, margin: policy.templateMargin,
                                        error: policy.templateError, light: light).first { $0.band == 0 }?.0
        }
        let read = try #require(whole.first { $0.margin >= policy.templateMargin && $0.error <= policy.templateError })
        #expect(read.digits.map(String.init).joined() == "9788656183117")
        #expect(abs(read.geometry.bend) >= 0.1, "bend \(read.geometry.bend)")
        try BlurInLightTests.expectReadBeyondFast(path, as: "9788656183117", by: .symbolFit)
    }

    /// Modules of 1.4 px in a 1.9-megapixel photo: halved for the map, the bars average to grey
    /// and the map sees nothing. With add-ons asked for the photo is decoded in full at once,
    /// and its map, made at half size, is made again in full, as the half-size look's is.
    @Test func aPhotoTheHalfSizeMapSeesNothingInIsMappedInFull() throws {
        let path = "\(Self.folder)/disk-fine-bars-mapped-in-full.jpg"
        let image = try ImageLoader.load(path: path).image
        #expect(image.width * image.height > DecodingPolicy().mapAtHalfSizeAbovePixels)
        #expect(CandidateMap.find(in: image.downscaled(by: 2)).isEmpty)
        #expect(!CandidateMap.find(in: image).isEmpty)
        for addOns in [false, true] {
            let scanner = FileScanner(scannerOptions: ScannerOptions(addOns: addOns))
            let report = try #require(scanner.scanFile(path: path).report)
            #expect(report.isbns.map(\.isbn13) == ["9788113231887"], "add-ons \(addOns)")
        }
    }

    /// A disk of 2 modules leaves only the wide bars: the map at full size sees no region with
    /// enough edges, and the coarse map's region measures bars under ``CandidateMap/minimumBarLength``
    /// edge spacings (the spacing is that of the wide bars) but longer than a third of the region
    /// is wide. The fit reads the symbol there.
    @Test func aSymbolShowingOnlyItsWideBarsIsFoundByItsBarsLength() throws {
        let path = "\(Self.folder)/disk2-wide-bars-only.jpg"
        let image = try ImageLoader.load(path: path).image
        #expect(CandidateMap.find(in: image).isEmpty)
        let half = image.downscaled(by: 2)
        #expect(CandidateMap.find(in: half).isEmpty)
        let region = try #require(CandidateMap.find(in: half, defocused: true).first)
        #expect(MultiPassDecoder.templateSymbols(image, around: region.scaled(by: 2)).map(\.data) == ["9782718771977"])
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: path).report)
            #expect(report.isbns.map(\.isbn13) == ["9782718771977"], "\(effort)")
        }
    }

    /// 3 px per module, defocused by 1 module, contrast 0.53 with noise: the map at full size
    /// sees the symbol in two halves, each too incoherent; the coarse map finds it whole, and the
    /// fit reads the code at that region in the full-size image, the first place it looks.
    @Test func aCoarseRegionIsFittedInTheFullSizeImage() throws {
        let path = "\(Self.folder)/disk-coarse-region-fitted-in-full.jpg"
        let image = try ImageLoader.load(path: path).image
        #expect(CandidateMap.find(in: image).isEmpty)
        let half = image.downscaled(by: 2)
        let region = try #require(CandidateMap.find(in: half, defocused: true).first)
        #expect(MultiPassDecoder.templateSymbols(image, around: region.scaled(by: 2)).map(\.data) == ["9786302688627"])
        for effort in [Effort.normal, .thorough] {
            let report = try #require(FileScanner(effort: effort).scanFile(path: path).report)
            #expect(report.isbns.map(\.isbn13) == ["9786302688627"], "\(effort)")
        }
    }

    /// A disk of 2 modules at 1.6 px per module: the region the map finds shows 19 edges on its
    /// best line, under the map's 20, and nothing else is barcode-like. The defocused map, at the
    /// same scale, keeps it, and the fit reads the symbol there.
    @Test func aRegionWithTooFewEdgesForTheMapIsFittedWhenNothingWasRead() throws {
        let path = "\(Self.folder)/disk2-few-edges.jpg"
        let image = try ImageLoader.load(path: path).image
        #expect(CandidateMap.find(in: image).isEmpty)
        let region = try #require(CandidateMap.find(in: image, defocused: true).first)
        #expect(region.edges < CandidateMap.minimumEdges)
        #expect(MultiPassDecoder.templateSymbols(image, around: region).map(\.data) == ["9781826841817"])
        try BlurInLightTests.expectReadBeyondFast(path, as: "9781826841817")
    }

    /// 4 px per module under a disk of 2 modules (8 px): at the map's scale and at half of it,
    /// the blocks inside the wide bars and spaces hold no gradient and cut the symbol into
    /// pieces the fit cannot read. At a quarter scale a block spans 16 modules, the defocused
    /// map sees the symbol whole with its bars resolved, and the fit reads it in full size.
    @Test func aSymbolOfLargeModulesIsMappedWholeAtAQuarterScale() throws {
        let path = "\(Self.folder)/disk2-large-modules.jpg"
        let image = try ImageLoader.load(path: path).image
        #expect(image.width * image.height < DecodingPolicy().mapAtHalfSizeAbovePixels)
        for factor in [1, 2] {
            let copy = factor == 1 ? image : image.downscaled(by: factor)
            let read = CandidateMap.find(in: copy, defocused: true).flatMap {
                MultiPassDecoder.templateSymbols(image, around: $0.scaled(by: factor))
            }
            #expect(read.isEmpty, "scale 1/\(factor): \(read.map(\.data))")
        }
        let region = try #require(CandidateMap.find(in: image.downscaled(by: 2).downscaled(by: 2), defocused: true).first)
        #expect(region.edgeSpacing != nil)
        #expect(MultiPassDecoder.templateSymbols(image, around: region.scaled(by: 4)).map(\.data) == ["9787777894223"])
        try BlurInLightTests.expectReadBeyondFast(path, as: "9787777894223", by: .symbolFit)
    }

    /// The blurred ends of the bars and the digits under them turn the region's summed gradient
    /// to a coherence under ``CandidateMap/minimumRegionCoherence``; its bars are measured along
    /// themselves, so the defocused map keeps it (the map for sharp symbols does not), and the fit
    /// reads the code there.
    @Test func aDefocusedRegionWhoseBarsAreMeasuredNeedsLessCoherence() throws {
        let path = "\(Self.folder)/disk2-incoherent-region.jpg"
        let image = try ImageLoader.load(path: path).image
        #expect(CandidateMap.find(in: image).isEmpty)
        let region = try #require(CandidateMap.find(in: image, defocused: true).first)
        #expect(region.coherence < CandidateMap.minimumRegionCoherence)
        #expect(region.coherence >= CandidateMap.minimumCoherence)
        #expect(region.edgeSpacing != nil)
        #expect(MultiPassDecoder.templateSymbols(image, around: region).map(\.data) == ["9787771817785"])
        try BlurInLightTests.expectReadBeyondFast(path, as: "9787771817785")
    }

    /// A camera's band: the map sees the defocused symbol in two pieces, cut where its blocks
    /// lie inside a wide bar or space. Neither piece holds the structure the fit needs; the two
    /// joined (``MultiPassDecoder/joinedPieces(_:)``) do.
    @Test func twoPiecesOfOneSymbolAreFittedJoined() throws {
        let path = "\(Self.folder)/band-symbol-in-two-pieces.jpg"
        let image = try ImageLoader.load(path: path).image
        let pieces = CandidateMap.find(in: image)
        #expect(pieces.count == 2)
        #expect(pieces.flatMap { MultiPassDecoder.templateSymbols(image, around: $0) }.isEmpty)
        let joined = MultiPassDecoder.joinedPieces(pieces)
        #expect(joined.count == 1)
        #expect(joined.flatMap { MultiPassDecoder.templateSymbols(image, around: $0) }.map(\.data) == ["9783186738141"])
        try BlurInLightTests.expectReadBeyondFast(path, as: "9783186738141", by: .symbolFit)
    }

    /// Which regions are joined: side by side across the bars, in one direction, close and
    /// level enough; not one holding the other, not apart, not crossed.
    @Test func onlyPiecesSideBySideAreJoined() {
        func region(_ x: Int, _ y: Int, _ width: Int, _ height: Int, angle: Double = 2, blocks: Int = 20) -> Candidate {
            Candidate(rect: PixelRect(x: x, y: y, width: width, height: height), angle: angle, inverted: false,
                      blocks: blocks, coherence: 0.9)
        }
        let left = region(100, 40, 140, 96, blocks: 30), right = region(256, 48, 100, 96)
        let joined = MultiPassDecoder.joinedPieces([right, left])
        #expect(joined.map(\.rect) == [PixelRect(x: 100, y: 40, width: 256, height: 104)])
        #expect(joined.map(\.blocks) == [50])
        #expect(joined.map(\.angle) == [2])
        // Bars lying flat: pieces one above the other.
        #expect(MultiPassDecoder.joinedPieces([region(40, 100, 96, 140, angle: 88), region(48, 256, 96, 100, angle: -89)])
            .map(\.rect) == [PixelRect(x: 40, y: 100, width: 104, height: 256)])
        #expect(MultiPassDecoder.joinedPieces([left, region(300, 48, 100, 96)]).isEmpty)           // gap 60 of 100
        #expect(MultiPassDecoder.joinedPieces([left, region(256, 48, 100, 96, angle: 15)]).isEmpty)  // 13° apart
        #expect(MultiPassDecoder.joinedPieces([left, region(256, 100, 100, 96)]).isEmpty)          // 36 of 96 along
        #expect(MultiPassDecoder.joinedPieces([left, region(120, 48, 100, 96)]).isEmpty)           // inside it
    }

    /// The region takes in the digits under the bars and the label's edge: neither the mean of
    /// all its lines nor of its middle half fits a symbol with the margin asked. The half of its
    /// lines at one end is the bars, and reads the code, confirmed by its own two halves.
    @Test func theBarsAtOneEndOfTheRegionAreReadOnTheirOwn() throws {
        let path = "\(Self.folder)/disk-bars-at-one-end.jpg"
        let image = try ImageLoader.load(path: path).image
        let candidate = try BlurInLightTests.refinedRegion(image)
        #expect(BlurInLightTests.goodReadings(image, around: candidate, middle: false, registers: false) == [[], []])
        let read = BlurInLightTests.goodReadings(image, around: candidate, registers: false)
        #expect(read.contains { $0.count >= 2 && Set($0) == ["9788119877027"] }, "\(read)")
        try BlurInLightTests.expectReadBeyondFast(path, as: "9788119877027")
    }

    /// A sheared label: its bars stand upright, but end along the label's slanted edges, so the
    /// outer lines across the region cross the bars at one end of the symbol and the label and
    /// the background beyond them at the other. No mean of plain lines (all of them, the middle
    /// half, either end's half) fits a symbol with the margin asked; the lines registered to
    /// the bars do in either light, confirmed by the lines on one side of those they were
    /// registered to.
    @Test func aShearedLabelIsReadFromLinesRegisteredToItsBars() throws {
        let path = "\(Self.folder)/disk-sheared-label.jpg"
        let image = try ImageLoader.load(path: path).image
        let candidate = try BlurInLightTests.refinedRegion(image)
        #expect(BlurInLightTests.goodReadings(image, around: candidate, registers: false) == [[], []])
        #expect(BlurInLightTests.goodReadings(image, around: candidate) == [["9787831158216", "9787831158216"],
                                                                             ["9787831158216", "9787831158216"]])
        // The policy that keeps to the plain lines (the camera's spare-time recovery) reads nothing.
        let region = try BlurInLightTests.region(image)
        var plainLines = DecodingPolicy()
        plainLines.registersBars = false
        #expect(MultiPassDecoder.templateSymbols(image, around: region, policy: plainLines).isEmpty)
        #expect(MultiPassDecoder.templateSymbols(image, around: region).map(\.data) == ["9787831158216"])
        try BlurInLightTests.expectReadBeyondFast(path, as: "9787831158216")
        // zbar's unsharp-mask pass reads a product code from the same bars; the fit's widths
        // refuse it as a misread of the ISBN, which it names.
        let report = try #require(FileScanner(effort: .normal).scanFile(path: path).report)
        #expect(report.codes.map(\.symbol.pass) == [.symbolFit, "unsharp"])
        #expect(report.codes.map(\.symbol.data) == ["9787831158216", "9187231758816"])
        #expect(report.codes.map(\.misreadOf) == [nil, "9787831158216"])
    }

    /// A label in perspective, its print contrast 0.57 on a grey cover, defocused by a module.
    /// On this photo the light stretch and the flat one that the other guesses take for its left
    /// quiet zone lie inside the symbol, and the longest dark stretch is the cover's; the
    /// stretch where the profile changes between two still ones
    /// (``EANTemplateDecoder/activeStretch(_:center:width:)``) holds the symbol. Nothing reads
    /// it at `fast`; the fit reads it at `normal` and `thorough`, and without that guess
    /// (``DecodingPolicy/guessesActiveStretch``) reads nothing.
    @Test func aLabelWhoseQuietZonesAreMisjudgedIsReadFromWhereItsBarsChange() throws {
        let path = "\(Self.folder)/disk-quiet-zones-unseen.jpg"
        try BlurInLightTests.expectReadBeyondFast(path, as: "9789772661282", by: .symbolFit)
        // The policy without that guess (the camera's spare-time recovery) reads nothing there.
        let image = try ImageLoader.load(path: path).image
        let region = try BlurInLightTests.region(image)
        var withoutIt = DecodingPolicy()
        withoutIt.guessesActiveStretch = false
        #expect(MultiPassDecoder.templateSymbols(image, around: region, policy: withoutIt).isEmpty)
        #expect(MultiPassDecoder.templateSymbols(image, around: region).map(\.data) == ["9789772661282"])
    }
}
