import Testing
import Capture
import Imaging
import LiveScan
import Scanning
import TestSupport

/// A book held too close to a fixed-focus webcam (issue 11): its barcode, defocused by a disk of
/// two modules, is read from the band at `--effort fast` and confirmed across frames.
@Suite struct OutOfFocusFrameTests {
    /// The band of a 1280×720 frame (x 64…1215, y 288…395) holding a defocused EAN-13 with
    /// 2.5-pixel modules and bars running through the band; each frame has its own noise.
    static func band(frame: Int) -> RegionPixels {
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        let image = BlurredEAN13.picture("9780262510875", module: 2.5, radius: 5, sigma: 3, seed: UInt32(frame + 1),
                                         width: rect.width, height: rect.height, left: 400, top: 0, barHeight: rect.height)
        return RegionPixels(image: image, rect: rect, frameWidth: 1280, frameHeight: 720)
    }

    /// With time for the fit on every frame (a share of a million: any time between frames pays for it).
    @Test func aDefocusedBookIsConfirmedAcrossFrames() throws {
        let scanner = FrameScanner(region: .band, outOfFocusShare: 1e6)
        var confirmer = FrameConfirmer(requiredFrames: 2)
        var confirmedAt: Int?
        for frame in 0..<40 {
            let report = scanner.scan(Self.band(frame: frame))
            // Nothing here but the fitted structure reads it (zbar's sparse lines read nothing).
            #expect(report.codes.allSatisfy { $0.symbol.pass == "template" })
            let due = confirmer.observe(report.isbns.map(\.isbn13), at: Double(frame) / 30)
            if !due.isEmpty {
                #expect(due == ["9780262510875"])
                confirmedAt = frame
                break
            }
        }
        let frame = try #require(confirmedAt, "not confirmed in 40 frames")
        // The map runs on every 8th frame without a read: attempts on frames 0 and 8.
        #expect(frame == FrameScanner.outOfFocusMapEvery && scanner.outOfFocusAttempts == 2,
                "frame \(frame), attempts \(scanner.outOfFocusAttempts)")
    }

    /// The fit's cost is spread over time: with a share far below what one attempt costs,
    /// the frames after the first attempt get none (they are scanned the cheap way only).
    @Test func attemptsWaitUntilFramesHavePaidForThem() {
        let scanner = FrameScanner(region: .band, outOfFocusShare: 1e-9)
        for frame in 0..<10 { _ = scanner.scan(Self.band(frame: frame)) }
        #expect(scanner.outOfFocusAttempts == 1)
    }

    /// A blank band costs nothing more: nothing barcode-like, no attempt.
    @Test func aBlankBandGetsNoAttempt() {
        let scanner = FrameScanner(region: .band)
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        for _ in 0..<5 {
            let pixels = RegionPixels(image: LuminanceImage(width: rect.width, height: rect.height, filledWith: 200),
                                      rect: rect, frameWidth: 1280, frameHeight: 720)
            #expect(scanner.scan(pixels).codes.isEmpty)
        }
        #expect(scanner.outOfFocusAttempts == 0)
    }
}
