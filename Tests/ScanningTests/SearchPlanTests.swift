// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
import Imaging
@testable import Scanning
import TestSupport

/// The search plan: each effort extends the one below, what a lower effort read a higher one
/// reads, repetition is not evidence, and the accepted prefixes are the arbiter's.
@Suite struct SearchPlanTests {
    @Test(arguments: [(640, 480), (4000, 3000), (100, 80)])
    func eachEffortsPlanBeginsWithThePlanBelow(width: Int, height: Int) {
        let rect = PixelRect(x: 0, y: 0, width: width, height: height)
        let fast = SearchPlan(effort: .fast, region: rect).stages
        let normal = SearchPlan(effort: .normal, region: rect).stages
        let thorough = SearchPlan(effort: .thorough, region: rect).stages
        #expect(fast.map(\.kind) == [.firstLook, .map, .fullScan])
        #expect(normal.map(\.kind) == [.firstLook, .map, .fullScan, .recovery, .symbolFit, .coarseFit])
        #expect(thorough.map(\.kind) == [.firstLook, .map, .fullScan, .recovery, .symbolFit, .coarseFit, .recovery])
        #expect(Array(normal.prefix(fast.count)) == fast)
        #expect(Array(thorough.prefix(normal.count)) == normal)
        // thorough's own stage scans every line and holds every normal pass and its own.
        let last = thorough.last!
        #expect(last.everyLine && last.effort == .thorough)
        #expect(Array(last.passes.prefix(normal[3].passes.count)) == normal[3].passes)
    }

    /// A symbol of 3-pixel modules defocused by 2 modules, printed grey (40 % of the contrast):
    /// its edges are too soft for any block of the map at full size, so `fast` finds nothing
    /// barcode-like and ends; the coarse stage of `normal` finds it with the map made for
    /// defocused symbols and the fit reads it. The same in a picture under 200 pixels tall, whose first look scans no sparse
    /// lines (the full scan of every line comes before the map's verdict): the coarse stage runs
    /// there too.
    @Test(arguments: [(300, 60, 180), (180, 30, 120)])
    func aDefocusedSymbolTheMapMissesIsFoundAtHalfScale(height: Int, top: Int, barHeight: Int) {
        let sharp = BlurredEAN13.picture("9780306406157", module: 3, radius: 6, sigma: 2, seed: 4, height: height, top: top,
                                         barHeight: barHeight)
        let image = LuminanceImage(width: sharp.width, height: sharp.height,
                                   pixels: sharp.pixels.map { UInt8(max(0, min(255, 160 + (Double($0) - 160) * 0.4))) })
        #expect(DecodingPolicy().firstLookStep(width: image.width, height: image.height) == (height < 200 ? 1 : 3))
        #expect(CandidateMap.find(in: image).isEmpty)
        #expect(MultiPassDecoder(scanner: BarcodeScanner(), effort: .fast).decode(image).codes.isEmpty)
        for effort in [Effort.normal, .thorough] {
            let report = MultiPassDecoder(scanner: BarcodeScanner(), effort: effort).decode(image)
            #expect(report.isbns.map(\.isbn13) == ["9780306406157"], "\(effort)")
            #expect(report.codes.map(\.symbol.pass) == [.symbolFit], "\(effort)")
            // Mapped back from half scale: the region the fit read in (whole blocks of the map)
            // holds the symbol (x 76-361, bars from `top` for `barHeight`) to within 8 modules.
            let polygon = report.codes.flatMap(\.symbol.polygon)
            let xs = polygon.map(\.x), ys = polygon.map(\.y)
            #expect(!polygon.isEmpty && xs.min()! >= 52 && xs.max()! <= 385 && ys.min()! >= top - 24
                        && ys.max()! <= top + barHeight + 24, "\(effort): \(polygon)")
            #expect(xs.min()! <= 100 && xs.max()! >= 337, "\(effort): the symbol's whole width, \(polygon)")
        }
    }

    /// A region under 4 blocks of the map each way (64 pixels) at the map's scale cannot be
    /// mapped, for defocused symbols either: its plan has no coarse fit. One of 64 by 64 can;
    /// from a megapixel on the map is made at half size, so 128 pixels each way are needed.
    @Test func aRegionTooSmallToMapHasNoCoarseFit() {
        for (width, height) in [(63, 200), (200, 63)] {
            let plan = SearchPlan(effort: .thorough, region: PixelRect(x: 0, y: 0, width: width, height: height))
            #expect(plan.stages.map(\.kind) == [.firstLook, .map, .fullScan, .recovery, .symbolFit, .recovery])
        }
        let smallest = SearchPlan(effort: .normal, region: PixelRect(x: 0, y: 0, width: 64, height: 64))
        #expect(smallest.stages.map(\.kind).last == .coarseFit)
        let strip = SearchPlan(effort: .normal, region: PixelRect(x: 0, y: 0, width: 10_000, height: 127))
        #expect(strip.stages.map(\.kind) == [.firstLook, .map, .fullScan, .recovery, .symbolFit])
        let wide = SearchPlan(effort: .normal, region: PixelRect(x: 0, y: 0, width: 10_000, height: 128))
        #expect(wide.stages.map(\.kind).last == .coarseFit)
    }

    @Test func aPlanSkipsTheFirstLookAReducedCopyAlreadyHad() {
        let plan = SearchPlan(effort: .normal, region: PixelRect(x: 0, y: 0, width: 4000, height: 3000), firstLookDone: true)
        #expect(plan.stages.map(\.kind) == [.map, .fullScan, .recovery, .symbolFit, .coarseFit])
    }

    /// The camera's spare-time plan: the stages of `normal` after the map, the fit before the
    /// passes, which run only where the fit left something unsettled.
    @Test func theCamerasSpareTimePlanFitsBeforeThePasses() {
        let rect = PixelRect(x: 0, y: 0, width: 1152, height: 108)
        let plan = SearchPlan.spareTime(region: rect, policy: DecodingPolicy())
        #expect(plan.stages.map(\.kind) == [.map, .fullScan, .symbolFit, .recovery])
        #expect(plan.stages.map(\.effort) == [.fast, .fast, .normal, .normal])
        #expect(plan.stages.last!.afterFit && !plan.stages.last!.everyLine)
        #expect(plan.stages.last!.passes == SearchPlan(effort: .normal, region: rect).stages[3].passes)
        #expect(plan.description.hasSuffix(", after the fit: " + plan.stages.last!.passes.joined(separator: " ")))
    }

    @Test func passesSayWhatTheyDoAsProperties() {
        let passes = MultiPassDecoder.passes(for: .thorough, width: 1000, height: 800)
        let names = { (keep: (DecodingPass) -> Bool) in passes.filter(keep).map(\.name.rawValue) }
        #expect(names(\.rotates) == ["rotate+30", "rotate-30", "rotate+15", "rotate-15", "rotate+45", "rotate-45",
                                     "rotate+60", "rotate-60", "invert-rotate+15", "invert-rotate-15", "invert-rotate+30",
                                     "invert-rotate-30", "invert-rotate+45", "invert-rotate-45"])
        #expect(names { $0.inverts && !$0.rotates } == ["invert", "invert-smooth"])
        #expect(names(\.restoresBlur) == ["smooth", "unsharp", "unsharp-strong"])
        #expect(names(\.byLines) == ["lines"])
        #expect(passes.first { $0.name == "half" }?.scale == 2)
        #expect(passes.first { $0.name == "upscale-2" }?.scale == 0.5)
    }

    /// The case of a phone photo: the lower effort accepted the ISBN; the higher effort's extra
    /// passes (the same pixels turned and smoothed) repeat a misread. The repetition is no
    /// evidence: the ISBN stays accepted. Where a higher effort's other decoder brings the rival
    /// to a tie, the lower effort's verdict stays too.
    @Test func repeatedMisreadsDoNotUndoWhatALowerEffortRead() throws {
        // The misread differs from the ISBN in digits whose edges differ: not the widths' to settle.
        let right = "9780201752847", misread = "9780201753547"
        let below = [reading(right, pass: "smooth", verification: .confirmed(lines: 3)), reading(right, pass: "gamma-0.6"),
                     reading(misread, pass: "threshold")]
        let lower = ScanReport(symbols: below, recoveryEvidence: 2)
        #expect(lower.isbns.map(\.isbn13) == [right])
        let rotations: [PassName] = ["rotate+15", "rotate-15", "rotate+45", "rotate-45", "rotate+60"]
        let higher = ScanReport(symbols: below + rotations.map { reading(misread, pass: $0) }, recoveryEvidence: 2)
        #expect(higher.isbns.map(\.isbn13) == [right])
        let tied = ScanReport(symbols: below + [lineDecoderReading(misread)], recoveryEvidence: 2)  // 3 to 2
        #expect(tied.isbns.isEmpty)
        #expect(tied.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        let kept = tied.keeping(lower)
        #expect(kept.isbns.map(\.isbn13) == [right])
        #expect(kept.codes.map(\.symbol.data) == [right, misread])
        #expect(kept.rejected.first?.verdict.rejection?.reason == .misread)
        #expect(kept.rejected.first?.misreadOf == right)
    }

    /// A misread that wins its place at the higher effort without a measurement of the widths
    /// (here zbar and the line decoder on twelve times the scan lines) does not undo the ISBN the
    /// lower effort accepted: the misread is refused as its misread.
    @Test func aMisreadThatOutweighsTheISBNWithoutTheWidthsDoesNotUndoIt() throws {
        let right = "9780201752847", misread = "4182208752847"
        let lower = ScanReport(symbols: [reading(right, pass: "smooth"), reading(right, pass: "gamma-0.6")], recoveryEvidence: 2)
        #expect(lower.isbns.map(\.isbn13) == [right])
        let higher = ScanReport(symbols: [reading(right, pass: "smooth"), reading(right, pass: "gamma-0.6"),
                                          reading(misread, pass: "rotate+15", quality: 60), lineDecoderReading(misread, quality: 60)],
                                recoveryEvidence: 2)
        #expect(higher.isbns.isEmpty)
        #expect(higher.codes.first { $0.symbol.data == right }?.verdict.rejection?.reason == .misread)
        let kept = higher.keeping(lower)
        #expect(kept.isbns.map(\.isbn13) == [right])
        #expect(kept.codes.first { $0.symbol.data == misread }?.misreadOf == right)
        // A confirming re-measurement of the rival, which the lower effort did not have, is new
        // evidence: the place is the higher effort's.
        let confirmed = ScanReport(symbols: [reading(right, pass: "smooth"), reading(misread, pass: "rotate+5"),
                                             reading("9780201758849", pass: "rotate+10", verification: .confirmed(lines: 4))],
                                   recoveryEvidence: 2)
        #expect(confirmed.keeping(lower).isbns.map(\.isbn13) == ["9780201758849"])
    }

    /// A product code the lower effort read stays read; a place it left ambiguous is the
    /// higher effort's to settle.
    @Test func aLowerEffortsProductCodeStaysAndItsOpenPlacesAreSettledAbove() {
        let product = Symbol(symbology: .ean13, data: "4006381333931", quality: 12, orientation: 0,
                             polygon: box(400, 300, 200, 40), pass: .full)
        let lower = ScanReport(symbols: [product, reading("9780306406157", pass: "full"), reading("9780306406751", pass: "smooth")])
        #expect(lower.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous, .prefix])
        let higher = ScanReport(symbols: [reading("9780306406157", pass: "full"), reading("9780306406751", pass: "smooth"),
                                          reading("9780306406157", pass: "invert", verification: .confirmed(lines: 3))])
        let kept = higher.keeping(lower)
        #expect(kept.isbns.map(\.isbn13) == ["9780306406157"])
        #expect(kept.codes.map(\.symbol.data) == ["9780306406157", "9780306406751", "4006381333931"])
        #expect(kept.codes.last?.verdict.rejection?.reason == .prefix)
    }

    /// The fit of the whole symbol is a measurement the lower plan did not make: when it reads
    /// another code at the place, the place is the higher effort's.
    @Test func theSymbolFitMayOverturnWhatTheFirstPassesRead() {
        let lower = ScanReport(symbols: [reading("9780306406157", pass: "full", quality: 3, verification: .unverified)])
        #expect(lower.isbns.map(\.isbn13) == ["9780306406157"])
        var fitted = reading("9780306406751", pass: .symbolFit, quality: 3)
        fitted.verification = .confirmed(lines: 3)
        let higher = ScanReport(symbols: [reading("9780306406157", pass: "full", quality: 3, verification: .unverified), fitted])
        let kept = higher.keeping(lower)
        #expect(kept.isbns.map(\.isbn13) == ["9780306406751"])
        #expect(kept.rejected.map(\.symbol.data) == ["9780306406157"])
        // The same when a pass read the fitted code too (the reported symbol is then the pass's).
        let also = ScanReport(symbols: [reading("9780306406157", pass: "full", quality: 3, verification: .unverified), fitted,
                                        reading("9780306406751", pass: "invert", quality: 40)])
        #expect(also.codes.first { $0.symbol.data == "9780306406751" }?.symbol.pass == "invert")
        #expect(also.keeping(lower).isbns.map(\.isbn13) == ["9780306406751"])
    }

    @Test func theArbiterJudges979WithThePolicysPrefixesOnce() throws {
        let code = "9791032305690"
        let symbols = [reading(code, pass: "full", verification: .confirmed(lines: 5))]
        let refused = ScanReport(symbols: symbols)
        #expect(refused.isbns.isEmpty)
        #expect(refused.rejected.first?.verdict.rejection?.reason == .prefix)
        let accepted = ScanReport(symbols: symbols, accepting: .with979)
        #expect(accepted.isbns.map(\.isbn13) == [code])
        #expect(Arbiter.isSettled(symbols, minimumEvidence: 1, accepting: .with979))
        // The ISMN range 979-0 stays refused whatever the policy.
        let ismn = ScanReport(symbols: [reading("9790060115615", pass: "full", verification: .confirmed(lines: 5))], accepting: .with979)
        #expect(ismn.rejected.first?.verdict.rejection?.reason == .ismn)
        // A decoder given the policy accepts the 979 fixture with no second judgement.
        let image = try ImageLoader.load(path: "\(testImages)/rejected/isbn979.png").image
        let expected = try String(contentsOfFile: "\(testImages)/rejected/isbn979.txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let only978 = MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy()).decode(image)
        #expect(only978.isbns.isEmpty)
        #expect(only978.codes.map(\.symbol.data) == [expected])
        let with979 = MultiPassDecoder(scanner: BarcodeScanner(), policy: DecodingPolicy(accepting: .with979)).decode(image)
        #expect(with979.isbns.map(\.isbn13) == [expected])
    }

    /// A misread of an accepted code is listed but is no problem; a misread of a refused code,
    /// an ambiguity or a product code is.
    @Test func onlyRefusalsThatAreProblemsAreProblems() {
        let right = "9780306406157", rival = "9780306406751"
        let report = ScanReport(symbols: [reading(right, pass: "smooth", verification: .confirmed(lines: 3)),
                                          reading(right, pass: "gamma-0.6"), reading(rival, pass: "threshold")], recoveryEvidence: 2)
        #expect(report.rejected.map(\.symbol.data) == [rival])
        #expect(report.rejected.first?.misreadOf == right)
        #expect(report.problems.isEmpty)
        let product = "4006381333931", productRival = "4006381333337"
        let products = ScanReport(symbols: [reading(product, pass: "smooth", verification: .confirmed(lines: 3)),
                                            reading(product, pass: "gamma-0.6"),
                                            reading(product, pass: "stretch"), reading(productRival, pass: "threshold")])
        #expect(products.problems.map(\.symbol.data).sorted() == [productRival, product].sorted())
        #expect(products.codes.allSatisfy { $0.misreadOf == nil })
    }

    /// The same file through each effort gives nested results: every code a lower effort reads
    /// (not as ambiguous), a higher effort reads too, with the same verdict for an accepted one.
    @Test(arguments: ["isbn", "exif", "roi", "rejected", "negative", "trust"])
    func effortsGiveNestedResults(folder: String) throws {
        let names = try imageNames(in: folder)
        #expect(!names.isEmpty)
        for name in names {
            let path = "\(testImages)/\(folder)/\(name)"
            var lower: [String: Verdict]?
            for effort in Effort.allCases {
                let scanner = FileScanner(effort: effort)
                let report = try #require(scanner.scanFile(path: path).report, "\(name)")
                let read = Dictionary(report.codes.filter { $0.verdict.rejection?.reason != .ambiguous }
                                        .map { ($0.symbol.data, $0.verdict) }, uniquingKeysWith: { a, _ in a })
                for (code, verdict) in lower ?? [:] {
                    #expect(read[code] != nil, "\(name): \(code) read below \(effort), not at \(effort)")
                    if verdict.isbn != nil { #expect(read[code] == verdict, "\(name): \(code) at \(effort)") }
                }
                lower = read
            }
        }
    }

    /// Blurred labels the fit reads at normal: thorough reads them too.
    @Test(arguments: [(2.0, 1.0), (1.5, 1.5), (2.0, 2.0), (3.0, 2.5)])
    func blurredLabelsAreReadAtEveryEffortFromTheOneThatReadsThem(module: Double, radius: Double) {
        let digits = "9780306406157"
        let image = BlurredEAN13.picture(digits, module: module, radius: radius * module, seed: 7)
        var readBelow = false
        for effort in Effort.allCases {
            let report = MultiPassDecoder(scanner: BarcodeScanner(), effort: effort).decode(image)
            let read = report.isbns.map(\.isbn13) == [digits]
            if readBelow { #expect(read, "module \(module) radius \(radius): read below \(effort), not at \(effort)") }
            readBelow = readBelow || read
            #expect(report.isbns.allSatisfy { $0.isbn13 == digits })
        }
    }
}
