// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
import Imaging
@testable import Scanning
import TestSupport

/// The arbiter: evidence per place, margins, misreads superseded (issue 9).
@Suite struct ArbiterTests {
    @Test func aReadingMeasuredThreeToOneWins() {
        let right = "9780306406157", rival = "9780306406461"  // three digits apart, check digit valid
        // zbar's reading confirmed by the fit of the printed symbol (3) against zbar's rival (1).
        let report = ScanReport(symbols: [reading(right, pass: "smooth", verification: .confirmed(lines: 3)),
                                          reading(right, pass: "gamma-0.6"), reading(rival, pass: "threshold")],
                                recoveryEvidence: 2)
        #expect(report.isbns.map(\.isbn13) == [right])
        let refused = try! #require(report.rejected.first)
        #expect(refused.symbol.data == rival)
        #expect(refused.verdict.rejection?.reason == .misread)
        #expect(refused.verdict.rejection?.detail == "probable misread of \(right), which this barcode reads as with "
                + "clearly more evidence (3 to 1: independent measurements that agree)")
    }

    /// Passes that read the same bars with the same decoder are one measurement: three zbar passes
    /// against one are a tie, and no number of repeats outweighs a reading the fit confirmed.
    @Test func repeatedPassesAreOneMeasurement() {
        // Not a 1<->7 or 2<->8 confusion: the widths' vote does not decide between these two.
        let right = "9780306406157", rival = "9780306406461"
        let repeated = ScanReport(symbols: [reading(right, pass: "smooth"), reading(right, pass: "gamma-0.6"),
                                            reading(right, pass: "stretch"), reading(rival, pass: "threshold")],
                                  recoveryEvidence: 2)
        #expect(repeated.isbns.isEmpty)
        #expect(repeated.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        let confirmed = reading(right, pass: "full", verification: .confirmed(lines: 4))
        for repeats in [1, 3, 9] {
            let rivals = (0..<repeats).map { reading(rival, pass: PassName(rawValue: "rotate+\($0 * 5)"), quality: 40) }
            let report = ScanReport(symbols: [confirmed] + rivals, recoveryEvidence: 2)
            #expect(report.isbns.map(\.isbn13) == [right], "\(repeats) repeats")
            #expect(report.rejected.first?.verdict.rejection?.detail == "probable misread of \(right), which this barcode "
                    + "reads as with clearly more evidence (3 to 1: independent measurements that agree)")
        }
        // zbar and the line decoder are two measurements: they add up; the passes of each do not.
        let twoDecoders = Arbiter.places([reading(right, pass: "full", verification: .confirmed(lines: 4)),
                                          reading(right, pass: "smooth", quality: 30), lineDecoderReading(right),
                                          reading(rival, pass: "smooth"), reading(rival, pass: "gamma-0.6"),
                                          lineDecoderReading(rival, quality: 4)])
        #expect(twoDecoders.count == 1)
        #expect(twoDecoders.first?.evidence == [right: 4, rival: 2])
        #expect(twoDecoders.first?.lines == [right: 40, rival: 14])
        #expect(twoDecoders.first?.support == [right: 5, rival: 3])
    }

    /// The fit of the whole symbol is one measurement: alone, it does not outweigh zbar's reading
    /// of another book at its place (the first look's and the full scan's), whatever the
    /// passes. Where the two differ in digits the widths do not tell apart, nothing wins.
    @Test func aSymbolFitAloneDoesNotOutweighADecodersReadingOfAnotherBook() {
        let fitted = "9787048727311", read = "9787046747311"
        let symbols = [reading(read, pass: .preview, quality: 6, verification: .unverified),
                       reading(read, pass: .full, quality: 9, verification: .unverified),
                       reading(fitted, pass: .symbolFit, quality: 4, verification: .confirmed(lines: 4))]
        #expect(Arbiter.places(symbols).first?.evidence == [fitted: 2, read: 1])
        let report = ScanReport(symbols: symbols)
        #expect(report.isbns.isEmpty)
        #expect(report.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        // With zbar's reading confirmed as well, the fit's code is the misread.
        var confirmed = symbols
        confirmed[1].verification = .confirmed(lines: 3)
        #expect(ScanReport(symbols: confirmed).codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
    }

    /// Repetition still tells a barcode from a pattern decoded once by chance: a place only
    /// recovery passes read is judged when two of them agree, whatever measured it.
    @Test func twoAgreeingRecoveryPassesAreEnoughToBeJudged() {
        let code = "9780306406157"
        #expect(ScanReport(symbols: [reading(code, pass: "invert")], recoveryEvidence: 2).codes.isEmpty)
        let twice = ScanReport(symbols: [reading(code, pass: "invert"), reading(code, pass: "invert+smooth")], recoveryEvidence: 2)
        #expect(twice.isbns.map(\.isbn13) == [code])
        #expect(Arbiter.isSettled([reading(code, pass: "invert"), reading(code, pass: "invert+smooth")], minimumEvidence: 2))
        #expect(!Arbiter.isSettled([reading(code, pass: "invert")], minimumEvidence: 2))
    }

    /// zbar's lone one-line readings are where its misreads came from: a 978 code read on one
    /// scan line, which the fit cannot confirm, is not judged at all; a product code read so is
    /// shown refused with its code (it cannot become a wrong ISBN), and is not settled (the
    /// search for a book at its place goes on).
    @Test func aOneLineReadingIsJudgedOnlyWhenItCannotBeABook() {
        let book = ScanReport(symbols: [reading("9780306406157", pass: "full", quality: 1, verification: .unverified)])
        #expect(book.codes.isEmpty)
        let product = [reading("4006209700068", pass: "full", quality: 1, verification: .unverified)]
        let report = ScanReport(symbols: product)
        #expect(report.codes.map(\.symbol.data) == ["4006209700068"])
        #expect(report.codes.first?.verdict.rejection?.reason == .prefix)
        #expect(!Arbiter.isSettled(product, minimumEvidence: 1))
        // Two scan lines make the 978 reading judged.
        let twoLines = ScanReport(symbols: [reading("9780306406157", pass: "full", quality: 2, verification: .unverified)])
        #expect(twoLines.isbns.map(\.isbn13) == ["9780306406157"])
    }

    @Test func oneToOneStaysAmbiguous() {
        let report = ScanReport(symbols: [reading("9780306406157", pass: "full"), reading("9780306406751", pass: "smooth")])
        #expect(report.isbns.isEmpty)
        #expect(report.codes.map(\.verdict.rejection?.reason) == [.ambiguous, .ambiguous])
        #expect(report.codes.first?.verdict.rejection?.detail == "the same barcode also read as 9780306406751; neither is trusted")
        #expect(report.codes.first?.verdict.rejection?.remedy == .retakeOrType)
    }

    @Test func twoToOneIsNotEnoughWithoutFarMoreScanLines() {
        // zbar and the line decoder against zbar alone: 2 to 1.
        let a = [reading("9780306406157", pass: "full", quality: 10), lineDecoderReading("9780306406157", quality: 10),
                 reading("9780306406751", pass: "gamma-0.6", quality: 10)]
        #expect(ScanReport(symbols: a).isbns.isEmpty)
        // Ten times the scan lines of the rival settle a 2:1 majority.
        let b = [reading("9780306406157", pass: "full", quality: 60), lineDecoderReading("9780306406157", quality: 60),
                 reading("9780306406751", pass: "gamma-0.6", quality: 12)]
        #expect(ScanReport(symbols: b).isbns.map(\.isbn13) == ["9780306406157"])
        // The same scan lines read again by another pass are not more lines.
        let c = [reading("9780306406157", pass: "full", quality: 60), reading("9780306406157", pass: "smooth", quality: 60),
                 lineDecoderReading("9780306406157", quality: 1), reading("9780306406751", pass: "gamma-0.6", quality: 7)]
        #expect(ScanReport(symbols: c).isbns.isEmpty)
    }

    @Test func aReadingTheFitConfirmsOutweighsAnUnconfirmedRival() {
        let report = ScanReport(symbols: [reading("9780306406157", pass: "full", verification: .confirmed(lines: 5)),
                                          reading("9780306406751", pass: "full")])
        #expect(report.isbns.map(\.isbn13) == ["9780306406157"])
    }

    @Test func aContradictedReadingGivesWayToTheCodeTheFitReads() {
        // zbar read 9780306406751; the fit of its bars re-decodes 9780306406157 on 5 lines.
        let report = ScanReport(symbols: [reading("9780306406751", pass: "full",
                                                  verification: .contradicted(by: "9780306406157", lines: 5))])
        #expect(report.isbns.map(\.isbn13) == ["9780306406157"])
        #expect(report.codes.first { $0.symbol.data == "9780306406157" }?.symbol.pass == "fit")
        // The contradicted code stays a rival with no evidence; the fit's code has the profile fit's 2.
        let contradicted = reading("9780306406751", pass: "full", verification: .contradicted(by: "9780306406157", lines: 5))
        #expect(Arbiter.places([contradicted]).first?.evidence == ["9780306406751": 0, "9780306406157": 2])
        #expect(report.rejected.map(\.verdict.rejection?.reason) == [.misread])
    }

    @Test func aRefusedMisreadOfTheLeftHalfIsSupersededByTheISBN() {
        // zbar decodes the halves apart: 4182208752847 keeps the right half of 9780201752847.
        let misread = Symbol(symbology: .ean13, data: "4182208752847", quality: 8, orientation: 0,
                             polygon: box(300, 278, 788, 5), pass: "full")
        var isbn = (0..<3).map { i in
            Symbol(symbology: .ean13, data: "9780201752847", quality: 40, orientation: 0,
                   polygon: box(686, 183 + i, 401, 6), pass: ["smooth", "gamma-1.6", "lines"][i])
        }
        isbn[0].verification = .confirmed(lines: 3)
        isbn[2].measurement = .characterWidths
        let report = ScanReport(symbols: [misread] + isbn, recoveryEvidence: 2)
        #expect(report.isbns.map(\.isbn13) == ["9780201752847"])
        #expect(report.rejected.map(\.symbol.data) == ["4182208752847"])
        #expect(report.rejected.map(\.verdict.rejection?.reason) == [.misread])
    }

    @Test func twoDifferentBooksStackedAreNotRivals() {
        let upper = Symbol(symbology: .ean13, data: "9780306406157", quality: 10, orientation: 0, polygon: box(100, 100, 200, 10))
        let lower = Symbol(symbology: .ean13, data: "9780131103627", quality: 10, orientation: 0, polygon: box(100, 130, 200, 10))
        #expect(ScanReport(symbols: [upper, lower]).isbns.count == 2)
    }

    @Test func aGenuineJANPhotoStillEndsRefusedWithItsCode() throws {
        let image = try ImageLoader.load(path: "\(testImages)/rejected/jan.png").image
        for effort in Effort.allCases {
            let report = MultiPassDecoder(scanner: BarcodeScanner(), effort: effort).decode(image)
            #expect(report.isbns.isEmpty)
            #expect(report.codes.map(\.symbol.data) == ["4901234567894"], "effort \(effort)")
            #expect(report.codes.map(\.verdict.rejection?.reason) == [.prefix], "effort \(effort)")
        }
    }

    @Test func aRefusedFirstReadingDoesNotEndTheSearch() throws {
        // ean13-extension-1/38.png enlarged 3.5 times and blurred, as a phone photo shows it:
        // zbar's first look reads only 5181248752847, a misread of the left half of
        // 9780201752847. The search goes on; the ISBN is read, confirmed by the fit of its bars
        // (with the light falling off across this blurred print), and the misreads of the left
        // half are refused as such, not passed off as product codes.
        let original = try ImageLoader.load(path: "\(sharedCorpus)/zxing-cpp/ean13-extension-1/38.png").image
        let photo = original.upscaled(by: 3.5).boxBlurred()
        let decoder = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal)
        #expect(decoder.firstLook(photo)?.map(\.data) == ["5181248752847"])
        let report = decoder.decode(photo)
        #expect(report.isbns.map(\.isbn13) == ["9780201752847"])
        #expect(report.rejected.map(\.symbol.data).sorted() == ["4182208752847", "5181248752847"])
        #expect(report.rejected.allSatisfy { $0.verdict.rejection?.reason == .misread })
        // Three times its size, more blurred: the ISBN.
        let sharper = original.upscaled(by: 3).boxBlurred().boxBlurred().boxBlurred()
        #expect(decoder.decode(sharper).isbns.map(\.isbn13) == ["9780201752847"])
    }

    @Test func misreadsThatErrAtDifferentDigitsAreOutvoted() {
        // The right code read by two passes (one measurement); three misreads (valid check digits),
        // each wrong at other digits (1<->7, 2<->8): 1 to 1 for whole codes, 3 to 1 at every digit.
        let right = "9781788881814"
        let misreads = ["9187788881814", "9781728887814", "9781788281874"]
        let symbols = [reading(right, pass: "full"), reading(right, pass: "smooth")]
            + misreads.enumerated().map { reading($0.element, pass: PassName(rawValue: "pass\($0.offset)")) }
        let report = ScanReport(symbols: symbols)
        #expect(report.isbns.map(\.isbn13) == [right])
        #expect(report.rejected.map(\.verdict.rejection?.reason) == [.misread, .misread, .misread])
        // Two readings of one misread: that digit is 1 to 1, no winner.
        let tied = [reading(right, pass: "full"), reading(right, pass: "smooth"),
                    reading("9187788881814", pass: "a"), reading("9187788881814", pass: "b")]
        #expect(ScanReport(symbols: tied).isbns.isEmpty)
    }

    @Test func theStretchedPhotoWithExifOrientation6GivesItsISBN() throws {
        // ean13-1/25.png stretched to 4000x3000 and stored turned (EXIF orientation 6): upright,
        // the decoder sees the stretched picture turned a quarter.
        let original = try ImageLoader.load(path: "\(sharedCorpus)/zxing-cpp/ean13-1/25.png").image
        let sx = Double(original.width) / 4000, sy = Double(original.height) / 3000
        let stretched = original.resampled(width: 4000, height: 3000) { ($0 * sx, $1 * sy) }
        let upright = stretched.rotated(degrees: 90).image
        let report = MultiPassDecoder(scanner: BarcodeScanner(), effort: .normal).decode(upright)
        #expect(report.isbns.map(\.isbn13) == ["9780140013993"])
    }
}

/// Pass names are a type (issue 16 part 1): the first passes are known by constant, a second look
/// is named after its pass.
@Suite struct PassNameTests {
    @Test func firstPassesAndSecondLooks() {
        #expect(PassName.full.isFirst && PassName.preview.isFirst)
        #expect(!PassName.fit.isFirst && !PassName("smooth").isFirst)
        #expect(PassName("rotate+30").then("gamma-0.8").rawValue == "rotate+30+gamma-0.8")
        #expect(Symbol(symbology: .ean13, data: "9780306406157", quality: 1, orientation: 0, polygon: []).pass == .full)
    }
}

/// Codes that differ only in 1↔7 / 2↔8: the one width measurement there decides (``Arbiter/Place/widthVote``).
@Suite struct WidthVoteTests {
    let right = "9780628370204", rival = "9180682370804"

    @Test func theFitOutweighsRepeatedEdgeReadings() {
        let report = ScanReport(symbols: [
            reading(rival, pass: "unsharp", quality: 62, verification: .unverified),
            reading(rival, pass: "unsharp+smooth", quality: 36, verification: .unverified),
            reading(rival, pass: "unsharp-strong", quality: 8, verification: .unverified),
            reading(right, pass: .symbolFit, quality: 4, verification: .confirmed(lines: 4)),
        ])
        #expect(report.isbns.map(\.isbn13) == [right])
        #expect(report.rejected.map(\.symbol.data) == [rival])
        #expect(report.rejected.first?.verdict.rejection?.reason == .misread)
        #expect(report.rejected.first?.verdict.rejection?.detail == "probable misread of \(right): the two differ only "
                + "in digits that bar widths tell apart (1 and 7, 2 and 8), and the fit of the printed symbol, which "
                + "measures the widths, reads \(right)")
    }

    @Test func twoMeasuredCodesStayAmbiguous() {
        let report = ScanReport(symbols: [
            reading(rival, pass: "unsharp", quality: 62, verification: .confirmed(lines: 3)),
            reading(rival, pass: "smooth", quality: 30, verification: .unverified),
            reading(right, pass: .symbolFit, quality: 4, verification: .confirmed(lines: 4)),
            reading(right, pass: "full", quality: 4, verification: .unverified),
        ])
        #expect(report.isbns.isEmpty)
        #expect(Set(report.codes.map(\.verdict.rejection?.reason)) == [.ambiguous])
    }

    /// A product code (no 978/979 prefix) that only edge decoders read, however often, yields to
    /// the one code a width measurement read: zbar's total misread of a defocused ISBN looks so.
    @Test func aProductCodeReadOnlyByEdgeDecodersYieldsToTheFit() {
        let book = "9789755502908", product = "0080100002821"
        let symbols = [
            reading(product, pass: "full", quality: 33, verification: .unverified),
            reading(product, pass: "smooth", quality: 30, verification: .unverified),
            reading(product, pass: "gamma-0.6", quality: 28, verification: .unverified),
            reading(product, pass: "stretch", quality: 25, verification: .unverified),
        ]
        #expect(Arbiter.hasUnmeasuredProductCode(symbols))
        let report = ScanReport(symbols: symbols + [reading(book, pass: .symbolFit, quality: 4, verification: .confirmed(lines: 4))])
        #expect(report.isbns.map(\.isbn13) == [book])
        #expect(report.rejected.first?.verdict.rejection?.detail == "probable misread of \(book): edge decoders alone "
                + "read it, which no measurement of the bar widths confirmed, and the fit of the printed symbol, which "
                + "measures the widths, reads \(book)")
        // Confirmed by the re-measurement, the product code is a measurement too: the evidence decides.
        var confirmed = symbols
        confirmed[0].verification = .confirmed(lines: 5)
        #expect(!Arbiter.hasUnmeasuredProductCode(confirmed))
        let both = ScanReport(symbols: confirmed + [reading(book, pass: .symbolFit, quality: 4, verification: .confirmed(lines: 4))])
        #expect(both.isbns.isEmpty)
        #expect(both.accepted.isEmpty)
        // A book number read by edge decoders alone is not a product code to measure again.
        #expect(!Arbiter.hasUnmeasuredProductCode([reading(book, pass: "full", quality: 33, verification: .unverified)]))
    }

    /// A rival that differs in a digit whose edges differ (here 0 for 3, 4 for 5) is not the widths' to settle.
    @Test func otherDifferencesAreNotTheWidthsToSettle() {
        let other = "9780628370235"
        let report = ScanReport(symbols: [
            reading(other, pass: "unsharp", quality: 62, verification: .unverified),
            reading(other, pass: "unsharp+smooth", quality: 36, verification: .unverified),
            reading(other, pass: "unsharp-strong", quality: 8, verification: .unverified),
            reading(right, pass: .symbolFit, quality: 4, verification: .confirmed(lines: 4)),
        ])
        #expect(report.isbns.isEmpty)
    }
}
