// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
import Imaging
@testable import Scanning
import TestSupport

/// A witness that gives fixed digits and records where it was asked (no OCR).
final class FakeWitness: PrintedDigitsWitness {
    let digits: String?
    private(set) var asked: [[Point]] = []
    init(_ digits: String?) { self.digits = digits }
    func printedDigits(in image: LuminanceImage, quadrilateral: [Point]) -> String? {
        asked.append(quadrilateral)
        return digits
    }
}

/// The digits printed under the bars as one more measurement in the arbiter
/// (``Arbiter/Place/PrintedDigits``): they settle a place between codes the bars support, never
/// make a code the bars do not support a winner, and are not read where the bars decide.
@Suite struct PrintedDigitsWitnessTests {
    let right = "9780306406157", rival = "9780306406751"  // 1<->7 twice: both check digits hold
    let other = "9780306406164"                          // valid, and read by no decoder here

    /// The report on `symbols` with `witness` asked for the printed digits where they are in doubt.
    func judged(_ symbols: [Symbol], recoveryEvidence: Int = 1, _ witness: FakeWitness) -> ScanReport {
        ScanReport(symbols: symbols, recoveryEvidence: recoveryEvidence,
                   printedDigits: PrintedDigitsReadings(witness: witness, image: LuminanceImage(width: 400, height: 300)))
    }

    /// Two codes the re-measurement confirms, each in its own band of the bars: a tie.
    var tie: [Symbol] {
        [reading(right, pass: "full", verification: .confirmed(lines: 5)),
         reading(rival, pass: "full", verification: .confirmed(lines: 5))]
    }

    @Test func theDigitsSettleATieBetweenCodesTheBarsSupport() throws {
        let bars = ScanReport(symbols: tie)
        #expect(bars.isbns.isEmpty)
        #expect(bars.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        #expect(bars.codes.allSatisfy { $0.printedDigits == nil })
        let witness = FakeWitness(right)
        let report = judged(tie, witness)
        #expect(report.isbns.map(\.isbn13) == [right])
        let refused = try #require(report.rejected.first)
        #expect(refused.symbol.data == rival)
        #expect(refused.verdict.rejection?.reason == .misread)
        #expect(refused.verdict.rejection?.detail
                == "probable misread of \(right): the bars also read \(right), and the digits printed under the barcode read \(right)")
        #expect(refused.misreadOf == right)
        #expect(report.codes.map(\.printedDigits) == [right, right])
        #expect(witness.asked.count == 1)
        // Printed as the rival: the rival.
        #expect(judged(tie, FakeWitness(rival)).isbns.map(\.isbn13) == [rival])
    }

    @Test func digitsThatAreNoneOfTheRivalsLeaveThePlaceAmbiguous() throws {
        let report = judged(tie, FakeWitness(other))
        #expect(report.isbns.isEmpty)
        #expect(report.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        let detail = try #require(report.codes.first { $0.symbol.data == right }?.verdict.rejection?.detail)
        #expect(detail == "the same barcode also read as \(rival); neither is trusted; the digits printed under it read "
                + "\(other), which the bars do not read")
        #expect(report.codes.map(\.printedDigits) == [other, other])
        // Unreadable digits (nil): as without a witness.
        let unread = judged(tie, FakeWitness(nil))
        #expect(unread.codes.map(\.verdict) == ScanReport(symbols: tie).codes.map(\.verdict))
        #expect(unread.codes.allSatisfy { $0.printedDigits == nil })
    }

    /// A code the bars read only where the re-measurement contradicts it, or on one scan line
    /// without confirmation, is no code they support: the printed digits cannot make it a winner.
    @Test func theDigitsCannotMakeACodeTheBarsDoNotSupportAWinner() throws {
        // The rival read once, contradicted by the fit (evidence 0 for it, 2 for the right code):
        // 5 against 3 for a third code, no winner.
        let third = "9780306406010"
        let contradicted = [reading(right, pass: "full", verification: .confirmed(lines: 5)),
                            reading(third, pass: "full", verification: .confirmed(lines: 5)),
                            reading(rival, pass: "smooth", verification: .contradicted(by: right, lines: 3))]
        #expect(ScanReport(symbols: contradicted).isbns.isEmpty)
        let report = judged(contradicted, FakeWitness(rival))
        #expect(report.isbns.isEmpty)
        #expect(report.codes.allSatisfy { $0.verdict.rejection?.reason == .ambiguous })
        let detail = try #require(report.codes.first { $0.symbol.data == right }?.verdict.rejection?.detail)
        #expect(detail.hasSuffix("; the digits printed under it read \(rival), which the bars do not support enough"))
        // Two readings on one scan line each, neither confirmed: neither may be judged an ISBN.
        let oneLine = [reading(right, pass: "full", quality: 1, verification: .unverified),
                       reading(rival, pass: "full", quality: 1, verification: .unverified)]
        let lone = judged(oneLine, FakeWitness(right))
        #expect(lone.isbns.isEmpty)
        #expect(lone.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
    }

    @Test func aDecisiveBarcodeIsNeitherReadNorOverturned() {
        // Confirmed (3) against one unconfirmed reading (1): 3:1, decided by the bars.
        let decisive = [reading(right, pass: "full", verification: .confirmed(lines: 5)), reading(rival, pass: "smooth")]
        let witness = FakeWitness(rival)
        let report = judged(decisive, witness)
        #expect(report.isbns.map(\.isbn13) == [right])
        #expect(report.codes.allSatisfy { $0.printedDigits == nil })
        #expect(witness.asked.isEmpty)
        #expect(report.codes.map(\.verdict) == ScanReport(symbols: decisive).codes.map(\.verdict))
        // One code alone: nothing in doubt.
        let alone = FakeWitness(rival)
        #expect(judged([reading(right, pass: "full")], alone).isbns.map(\.isbn13) == [right])
        #expect(alone.asked.isEmpty)
    }

    /// A winner by 2:1 and ten times the scan lines is narrow: the printed digits confirm it, or,
    /// naming its rival, leave the place without a winner.
    @Test func aNarrowWinnerIsConfirmedOrDisputed() throws {
        let narrow = [reading(right, pass: "full", quality: 60), lineDecoderReading(right, quality: 60),
                      reading(rival, pass: "gamma-0.6", quality: 12)]
        #expect(ScanReport(symbols: narrow).isbns.map(\.isbn13) == [right])
        let agreeing = judged(narrow, FakeWitness(right))
        #expect(agreeing.isbns.map(\.isbn13) == [right])
        #expect(agreeing.rejected.first?.verdict.rejection?.detail == "probable misread of \(right), which this barcode reads "
                + "as with more evidence (2 to 1: independent measurements that agree) and far more scan lines (120 to 12); "
                + "the digits printed under it read \(right) too")
        let disputing = judged(narrow, FakeWitness(rival))
        #expect(disputing.isbns.isEmpty)
        #expect(disputing.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        let detail = try #require(disputing.codes.first { $0.symbol.data == right }?.verdict.rejection?.detail)
        #expect(detail == "the same barcode also read as \(rival); neither is trusted; the bars favour \(right), "
                + "the digits printed under it read \(rival)")
        // Digits that name neither: the bars' winner stands.
        #expect(judged(narrow, FakeWitness(other)).isbns.map(\.isbn13) == [right])
    }

    /// The witness gets the symbol's own corners: top-left first as its bars are read.
    @Test(arguments: [(0, 0), (90, 1), (180, 2), (270, 3)])
    func theQuadrilateralStartsAtTheSymbolsTopLeft(orientation: Int, first: Int) throws {
        let symbols = tie.map { symbol -> Symbol in
            var turned = symbol
            turned.orientation = orientation
            return turned
        }
        let witness = FakeWitness(nil)
        _ = judged(symbols, witness)
        let corners = box(100, 100, 200, 40)
        #expect(witness.asked == [(0..<4).map { corners[($0 + first) % 4] }])
    }

    /// TestImages/witness: bars whose upper half reads one code and lower half another (1<->7 twice).
    static let folder = "\(testImages)/witness"
    static let printed = "9780716717720", swapped = "9780716777120"

    @Test(arguments: [Effort.fast, .normal, .thorough])
    func theDecoderAsksOncePerPlaceInDoubt(effort: Effort) throws {
        let image = try ImageLoader.load(path: "\(Self.folder)/two-ways-printed-true.png").image
        let bars = MultiPassDecoder(scanner: BarcodeScanner(), effort: effort)
        let alone = bars.decode(image)
        #expect(alone.isbns.isEmpty)
        #expect(Set(alone.codes.map(\.symbol.data)) == [Self.printed, Self.swapped])
        #expect(alone.codes.allSatisfy { $0.verdict.rejection?.reason == .ambiguous })
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: effort)
        let witness = FakeWitness(Self.printed)
        decoder.witness = witness
        let report = decoder.decode(image)
        #expect(report.isbns.map(\.isbn13) == [Self.printed])
        #expect(report.codes.first { $0.symbol.data == Self.swapped }?.verdict.rejection?.reason == .misread)
        // The search judges its readings after each effort's stages; the digits are read once.
        #expect(witness.asked.count == 1)
        // The place's box: the readings' boxes together (zbar's, in the fixture's 532x312 pixels).
        let corners = try #require(witness.asked.first)
        #expect(corners[0].x < 90 && corners[1].x > 460 && corners[0].y < 45 && corners[2].y > 230)
    }

    @Test func aPlainBarcodeIsDecidedWithoutTheWitness() throws {
        let image = try ImageLoader.load(path: "\(Self.folder)/plain-printed-other.png").image
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .thorough)
        let witness = FakeWitness("9780716717744")
        decoder.witness = witness
        #expect(decoder.decode(image).isbns.map(\.isbn13) == [Self.printed])
        #expect(witness.asked.isEmpty)
    }
}
