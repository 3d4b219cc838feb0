// SPDX-License-Identifier: Apache-2.0
import Testing
import Capture
import Imaging
@testable import LiveScan
@testable import Scanning
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A book held too close to a fixed-focus webcam: its barcode, defocused by a disk of two
/// modules, is read from the band at `--effort fast` by the recovery that runs in the spare
/// time (``SpareTimeRecovery``), and confirmed across frames like any other reading.
@Suite struct SpareTimeRecoveryTests {
    /// The band of a 1280×720 frame (x 64…1215, y 288…395) holding a defocused EAN-13 with
    /// 2.5-pixel modules and bars running through the band; each frame has its own noise.
    static func band(frame: Int) -> RegionPixels {
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        let image = BlurredEAN13.picture("9780262510875", module: 2.5, radius: 5, sigma: 3, seed: UInt32(frame + 1),
                                         width: rect.width, height: rect.height, left: 400, top: 0, barHeight: rect.height)
        return RegionPixels(image: image, rect: rect, frameWidth: 1280, frameHeight: 720)
    }

    /// Run at once on each frame (``FrameScanner/SpareTimeMode/inline``): frame 0 is mapped and
    /// handed over, and so is frame 1 (something barcode-like was in view), whose reading
    /// confirms the ISBN.
    @Test func aDefocusedBookIsConfirmedOnTheSecondFrame() throws {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        var confirmer = FrameConfirmer(requiredFrames: 2)
        var confirmedAt: Int?
        for frame in 0..<10 {
            let report = scanner.scan(Self.band(frame: frame))
            // zbar's lines read nothing here: every reading is the recovery's.
            #expect(report.codes.allSatisfy { $0.symbol.pass != "full" })
            let due = confirmer.observe(report.isbns.map(\.isbn13), at: Double(frame) / 30)
            if !due.isEmpty {
                #expect(due == ["9780262510875"])
                confirmedAt = frame
                break
            }
        }
        #expect(confirmedAt == 1)
        #expect(scanner.recoveryAttempts == 2)
        #expect(scanner.recoveredFrames == 2)
    }

    /// On its own thread (the default): the frames go on being scanned while an attempt runs
    /// (each is handed over only when the last attempt is done), and the reading comes back
    /// with a later frame.
    @Test func theBackgroundRecoveryReadsWhileFramesGoOn() throws {
        let scanner = FrameScanner(region: .band)
        var isbns: [String] = []
        var frames = 0
        // Until two frames came back with the reading (a debug build needs a second or two per
        // attempt; the bound only keeps a broken recovery from hanging the test).
        while scanner.recoveredFrames < 2, frames < 20_000 {
            let report = scanner.scan(Self.band(frame: frames % 8))
            isbns += report.isbns.map(\.isbn13)
            frames += 1
            usleep(1_000)
        }
        #expect(scanner.recoveredFrames == 2)
        #expect(Set(isbns) == ["9780262510875"])
        #expect(scanner.recoveryAttempts >= 2)
        #expect(frames > scanner.recoveryAttempts)
    }

    /// Bars of random widths (no code), 2.5 pixels a module, starting `left` pixels into the band.
    static func stripes(left: Int) -> RegionPixels {
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        var row = [UInt8](repeating: 230, count: rect.width)
        var state: UInt64 = 7
        var x = Double(left), dark = true
        while x < Double(left) + 95 * 2.5 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let w = Double(1 + (state >> 33) % 4) * 2.5
            if dark { for i in Int(x)..<min(rect.width, Int(x + w)) { row[i] = 40 } }
            x += w
            dark.toggle()
        }
        let image = LuminanceImage(width: rect.width, height: rect.height, pixels: Array((0..<rect.height).map { _ in row }.joined()))
        return RegionPixels(image: image.boxBlurred(), rect: rect, frameWidth: 1280, frameHeight: 720)
    }

    /// Attempts that read nothing at one place back off (the second waits as long as the first
    /// took, and the frames in between are scanned the cheap way); something barcode-like at
    /// another place gets an attempt at once.
    @Test func failedAttemptsAtOnePlaceBackOff() {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        for _ in 0..<3 { #expect(scanner.scan(Self.stripes(left: 100)).codes.isEmpty) }
        #expect(scanner.recoveryAttempts == 2)
        #expect(scanner.scan(Self.stripes(left: 700)).codes.isEmpty)
        #expect(scanner.recoveryAttempts == 3)
    }

    /// A place where an attempt read a code is a barcode: the attempts that read nothing there
    /// after it (a blurred book held by hand reads in some frames only) do not back off.
    @Test func aPlaceThatReadDoesNotBackOff() {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        #expect(scanner.scan(Self.band(frame: 0)).isbns.map(\.isbn13) == ["9780262510875"])
        for _ in 0..<4 { #expect(scanner.scan(Self.stripes(left: 400)).codes.isEmpty) }
        #expect(scanner.recoveryAttempts == 5)
        #expect(scanner.scan(Self.band(frame: 1)).isbns.map(\.isbn13) == ["9780262510875"])
        #expect(scanner.recoveryAttempts == 6)
    }

    /// A place that read stops being tried on every frame once ``FrameScanner/placeReadPatience``
    /// attempts in a row there read nothing: then it backs off as any place does.
    @Test func aPlaceThatReadBacksOffAfterItsPatience() {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        #expect(scanner.scan(Self.band(frame: 0)).isbns.map(\.isbn13) == ["9780262510875"])
        #expect(scanner.readPlace != nil)
        for _ in 0..<(FrameScanner.placeReadPatience + 4) { #expect(scanner.scan(Self.stripes(left: 400)).codes.isEmpty) }
        #expect(scanner.recoveryAttempts == 1 + FrameScanner.placeReadPatience)
        // Its place is forgotten with it.
        #expect(scanner.readPlace == nil)
    }

    /// A frame with nothing barcode-like ends the place's standing: bars that come back there
    /// are tried as any new place (the first two attempts at once, then backing off).
    @Test func aPlaceThatReadForgetsItWhenTheViewEmpties() {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        #expect(scanner.scan(Self.band(frame: 0)).isbns.map(\.isbn13) == ["9780262510875"])
        #expect(scanner.scan(Self.stripes(left: 400)).codes.isEmpty)
        #expect(scanner.recoveryAttempts == 2)
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        let blank = RegionPixels(image: LuminanceImage(width: rect.width, height: rect.height, filledWith: 200),
                                 rect: rect, frameWidth: 1280, frameHeight: 720)
        #expect(scanner.scan(blank).codes.isEmpty)
        for _ in 0..<(FrameScanner.mapEvery + 4) { #expect(scanner.scan(Self.stripes(left: 400)).codes.isEmpty) }
        #expect(scanner.recoveryAttempts == 3)
    }

    /// A blank band costs nothing more: nothing barcode-like (its blocks have no gradient, so no
    /// half-size copy is mapped either), no attempt.
    @Test func aBlankBandGetsNoAttempt() {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        for _ in 0..<20 {
            let pixels = RegionPixels(image: LuminanceImage(width: rect.width, height: rect.height, filledWith: 200),
                                      rect: rect, frameWidth: 1280, frameHeight: 720)
            #expect(scanner.scan(pixels).codes.isEmpty)
        }
        #expect(scanner.recoveryAttempts == 0)
        let blank = LuminanceImage(width: rect.width, height: rect.height, filledWith: 200)
        #expect(CandidateMap.findReportingEnergy(in: blank).largestEnergy == 0)
    }

    /// A frame whose cheap scan reads an accepted ISBN needs no recovery.
    @Test func aReadableBookGetsNoAttempt() throws {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        let sharp = BlurredEAN13.picture("9780262510875", module: 3, radius: 0, sigma: 1, seed: 1,
                                         width: rect.width, height: rect.height, left: 400, top: 0, barHeight: rect.height)
        for _ in 0..<4 {
            let report = scanner.scan(RegionPixels(image: sharp, rect: rect, frameWidth: 1280, frameHeight: 720))
            #expect(report.isbns.map(\.isbn13) == ["9780262510875"])
        }
        #expect(scanner.recoveryAttempts == 0)
    }

    /// The band of a 1280×720 camera frame, stored as a JPEG (TestImages).
    static func storedBand(_ path: String) throws -> RegionPixels {
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        let image = try ImageLoader.load(path: "\(testImages)/\(path)").image
        try #require(image.width == rect.width && image.height == rect.height)
        return RegionPixels(image: image, rect: rect, frameWidth: 1280, frameHeight: 720)
    }

    /// The map of a defocused book held by hand sees the whole symbol in some frames and only a
    /// piece of it in others. Once an attempt read the code, an attempt whose map sees only a
    /// part of that place looks there first: the frame with a piece in view is read.
    @Test func aBookTheMapSeesInPartIsLookedForWhereItWasRead() throws {
        let piece = try Self.storedBand("camera-blur/piece-in-view.jpg")
        // Alone, the frame's one region (the left 144 of the symbol's 304 pixels) holds too
        // little of the symbol's structure to fit.
        #expect(CandidateMap.find(in: piece.image).map(\.rect) == [PixelRect(x: 400, y: 0, width: 144, height: 96)])
        let fresh = FrameScanner(region: .band, spareTime: .inline)
        #expect(fresh.scan(piece).codes.isEmpty)
        #expect(fresh.recoveryAttempts == 1)
        #expect(fresh.attemptsAtReadPlace == 0)

        let scanner = FrameScanner(region: .band, spareTime: .inline)
        var confirmer = FrameConfirmer(requiredFrames: 2)
        let first = scanner.scan(try Self.storedBand("blur-light/band-symbol-in-two-pieces.jpg"))
        #expect(first.isbns.map(\.isbn13) == ["9783186738141"])
        #expect(confirmer.observe(first.isbns.map(\.isbn13), at: 0).isEmpty)
        #expect(scanner.readPlace?.rect == PixelRect(x: 400, y: 0, width: 288, height: 96))
        let second = scanner.scan(piece)
        #expect(second.isbns.map(\.isbn13) == ["9783186738141"])
        #expect(confirmer.observe(second.isbns.map(\.isbn13), at: 0.3) == ["9783186738141"])
        #expect(scanner.attemptsAtReadPlace == 1)
        #expect(scanner.recoveredFrames == 2)
    }

    /// A faint book (contrast 0.6) defocused by nearly 2 modules at 2.7 pixels a module: the
    /// map's blocks see nothing at full size, those of a half-size copy see the symbol, and
    /// two frames read it.
    @Test func aFaintDefocusedBookIsMappedAtHalfSize() throws {
        let frames = try ["camera-blur/faint-frame-1.jpg", "camera-blur/faint-frame-2.jpg"].map(Self.storedBand)
        #expect(CandidateMap.find(in: frames[0].image).isEmpty)
        // Its blocks have gradient, under the map's energy: enough to look at half size.
        let energy = CandidateMap.findReportingEnergy(in: frames[0].image).largestEnergy
        #expect(energy >= CandidateMap.minimumEnergy / 4)
        #expect(FrameScanner.barcodeLike(in: frames[0].image).map(\.rect) == [PixelRect(x: 384, y: 0, width: 352, height: 96)])
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        var confirmer = FrameConfirmer(requiredFrames: 2)
        var due: [String] = []
        for (k, frame) in frames.enumerated() {
            let report = scanner.scan(frame)
            #expect(report.isbns.map(\.isbn13) == ["9784473404138"])
            due = confirmer.observe(report.isbns.map(\.isbn13), at: Double(k) / 3)
        }
        #expect(due == ["9784473404138"])
        #expect(scanner.recoveryAttempts == 2)
        #expect(scanner.recoveredFrames == 2)
        // The second frame was found by its own half-size map, not by the place of the first.
        #expect(CandidateMap.find(in: frames[1].image).isEmpty)
        #expect(scanner.attemptsAtReadPlace == 0)
    }

    /// A frame with nothing barcode-like forgets the place where a code was read: the frame with
    /// a piece in view after it, once mapped, gets no look there and is not read.
    @Test func aReadPlaceIsForgottenWhenTheViewEmpties() throws {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        #expect(scanner.scan(try Self.storedBand("blur-light/band-symbol-in-two-pieces.jpg")).isbns.map(\.isbn13) == ["9783186738141"])
        #expect(scanner.readPlace != nil)
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        let blank = RegionPixels(image: LuminanceImage(width: rect.width, height: rect.height, filledWith: 200),
                                 rect: rect, frameWidth: 1280, frameHeight: 720)
        #expect(scanner.scan(blank).codes.isEmpty)
        #expect(scanner.readPlace == nil)
        // With nothing barcode-like in view, every mapEvery-th frame is mapped.
        let piece = try Self.storedBand("camera-blur/piece-in-view.jpg")
        for _ in 0..<FrameScanner.mapEvery where scanner.recoveryAttempts < 2 {
            #expect(scanner.scan(piece).codes.isEmpty)
        }
        #expect(scanner.recoveryAttempts == 2)
        #expect(scanner.attemptsAtReadPlace == 0)
    }

    /// An attempt handed the read place, which reads the code there, leaves the place where it
    /// was: its reading's place takes in the region handed over, and would only grow.
    @Test func aReadingAtTheReadPlaceDoesNotMoveIt() throws {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        #expect(scanner.scan(try Self.storedBand("blur-light/band-symbol-in-two-pieces.jpg")).isbns.map(\.isbn13) == ["9783186738141"])
        let place = try #require(scanner.readPlace)
        #expect(scanner.scan(try Self.storedBand("camera-blur/piece-in-view.jpg")).isbns.map(\.isbn13) == ["9783186738141"])
        #expect(scanner.attemptsAtReadPlace == 1)
        #expect(scanner.readPlace?.rect == place.rect)
    }

    /// The region an attempt looks at first: none where a map region holds the place (to a
    /// block) or none overlaps it; else the region that overlaps most, with its own measures,
    /// its rectangle joined with the place.
    @Test func theRegionLookedAtFirst() {
        let place = PixelRect(x: 400, y: 0, width: 288, height: 96)
        func region(_ x: Int, _ width: Int, angle: Double = -2) -> Candidate {
            Candidate(rect: PixelRect(x: x, y: 0, width: width, height: 96), angle: angle, inverted: false, blocks: width / 16 * 6,
                      coherence: 0.9)
        }
        #expect(FrameScanner.lookFirst(at: place, candidates: [region(416, 272)]) == nil)
        #expect(FrameScanner.lookFirst(at: place, candidates: [region(800, 144)]) == nil)
        #expect(FrameScanner.lookFirst(at: place, candidates: []) == nil)
        let first = FrameScanner.lookFirst(at: place, candidates: [region(560, 64, angle: 1), region(384, 144, angle: -3)])
        #expect(first?.rect == PixelRect(x: 384, y: 0, width: 304, height: 96))
        #expect(first?.angle == -3)
        #expect(first?.blocks == 54)
    }

    /// On its own thread (the default): the attempt that brings the first reading back is taken
    /// before the frame it comes back on is offered, so that frame's attempt already looks where
    /// the code was read.
    @Test func theBackgroundRecoveryLooksWhereItReadOnTheNextAttempt() throws {
        let scanner = FrameScanner(region: .band)
        let whole = try Self.storedBand("blur-light/band-symbol-in-two-pieces.jpg")
        var frames = 0
        // Bounded only so that a broken recovery cannot hang the test: a debug build needs several
        // seconds for this attempt, and far more at a low priority while other tests run.
        while scanner.recoveredFrames < 1, frames < 300_000 {
            _ = scanner.scan(whole)
            frames += 1
            usleep(1_000)
        }
        #expect(scanner.recoveredFrames == 1)
        #expect(scanner.readPlace?.rect == PixelRect(x: 400, y: 0, width: 288, height: 96))
        // The frame the reading came back on was handed over with the place.
        #expect(scanner.recoveryAttempts == 2)
        #expect(scanner.attemptsAtReadPlace == 1)
    }
}
