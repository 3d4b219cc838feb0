// SPDX-License-Identifier: Apache-2.0
import Capture
import Foundation
import Imaging
@testable import LiveScan
import Scanning
import Testing
import TestSupport

/// Frames until the first confirmed ISBN, scanning every n-th row of the band per frame
/// (``FrameScanner/lineStep``) against every row and column of every frame (`lineStep` 1, what
/// the camera did before), on fixed seeded sequences of blurred, tilted and noisy books moving
/// through the band, served by the fake device (YUYV 1280x720) to a whole ``CameraSession``.
/// Counted in frames, never in time.
extension FakeDeviceTests { @Suite struct TimeToFirstReadTests {
    /// How a sequence's frames look.
    struct Shot: CustomStringConvertible, Sendable {
        var name: String
        /// Degrees clockwise, and the random swing around it per frame.
        var tilt: Double
        var swing: Double
        /// 3x3 box blurs applied (each widens an edge by about a pixel).
        var blurs: Int
        /// Uniform noise amplitude (± grey levels).
        var noise: Int
        /// Vertical offset of the book at the first frame and per frame (pixels, + down).
        var startY: Int
        var speedY: Int
        var seed: UInt64
        var description: String { name }
    }

    static let frames = 30

    /// Writes the sequence's frames as PGM files (1280x720, the book centred, then moved).
    /// `scale` 1.5: the same scene seen by a 1920x1080 camera (the book, once rotated and
    /// blurred, and its offsets 1.5 times larger; the same noise per pixel).
    static func render(_ shot: Shot, scale: Double = 1) throws -> [String] {
        let book = try ImageLoader.load(path: testImages + "/roi/band-inside.png").image
        let directory = NSTemporaryDirectory() + "isbnscan-ttfr-\(getpid())-\(shot.name)-\(Int(scale * 720))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var state = shot.seed
        func random() -> Double {   // SplitMix64 → [0, 1)
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var paths: [String] = []
        for i in 0..<frames {
            var image = book.rotated(degrees: shot.tilt + (random() * 2 - 1) * shot.swing).image
            for _ in 0..<shot.blurs { image = image.boxBlurred() }
            if scale != 1 { image = image.upscaled(by: scale) }
            let w = Int(1280 * scale), h = Int(720 * scale)
            var pixels = [UInt8](repeating: 255, count: w * h)
            let ox = (w - image.width) / 2 + Int((random() * 2 - 1) * 6 * scale)
            let oy = (h - image.height) / 2 + Int(Double(shot.startY + i * shot.speedY) * scale)
            let source = image.pixels
            for y in 0..<h {
                let sy = y - oy
                for x in 0..<w {
                    let sx = x - ox
                    var v = (sy >= 0 && sy < image.height && sx >= 0 && sx < image.width) ? Int(source[sy * image.width + sx]) : 255
                    if shot.noise > 0 { v += Int((random() * 2 - 1) * Double(shot.noise)) }
                    pixels[y * w + x] = UInt8(min(255, max(0, v)))
                }
            }
            let path = directory + "/frame-\(i).pgm"
            try (Data("P5\n\(w) \(h)\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }

    /// The frame number (1-based) of the first confirmed ISBN, or nil, and the ISBN.
    static func firstConfirmed(_ paths: [String], lineStep: Int, width: Int = 1280, height: Int = 720) throws
        -> (frame: Int?, isbn: String?) {
        try InProcessFake.configure(["FRAMES": paths.joined(separator: ":"), "FRAMES_PER_IMAGE": "1", "LOOP": "0",
                                     "FPS": "0", "FORMATS": "YUYV", "SIZES": "\(width)x\(height)"])
        var options = LiveScanOptions()
        options.format = .yuyv
        options.width = width
        options.height = height
        options.maxFrames = paths.count
        options.lineStep = lineStep
        options.timeout = 120
        // Frames served as fast as asked: the spare-time recovery runs on each frame it gets, so
        // the same frames give the same readings.
        options.spareTime = .inline
        var found: (Int?, String?) = (nil, nil)
        _ = CameraSession(options: options).run { event in
            if case .read(let frame, let report) = event, ProcessInfo.processInfo.environment["TTFR_DEBUG"] != nil {
                print("TTFR  step \(lineStep) frame \(frame):", report.codes.map { "\($0.symbol.data) q\($0.symbol.quality) \($0.verdict.isbn != nil ? "ok" : "no")" })
            }
            if case .confirmed(let frame, _, _, _, _, let codes) = event {
                found = (frame, codes.first?.verdict.isbn?.isbn13)
            }
            return true
        }
        return found
    }

    /// The sequences and the frames of the first confirmed ISBN when this test was written
    /// (lineStep 1 = every row and column / default 2): sharp 2/2, blurred 2/2, tilted 12° 4/4,
    /// tilted 20° 2/2, tilted and blurred 2/2, moving in 13/13, blurred b 3/3, tilted and
    /// blurred b 3/3, moving up 11/13 (the full scan reads that book in only 2 of its 30 frames,
    /// frames 8 and 11; the spread scan in frames 11 and 13). Steps 3/4: blurred 6/2, tilted
    /// and blurred 3/2, the rest as step 2.
    static let shots: [Shot] = [
        Shot(name: "sharp-upright", tilt: 0, swing: 1, blurs: 0, noise: 6, startY: 0, speedY: 0, seed: 1),
        Shot(name: "blurred", tilt: 0, swing: 2, blurs: 1, noise: 8, startY: 0, speedY: 0, seed: 2),
        Shot(name: "tilted-12", tilt: 12, swing: 2, blurs: 1, noise: 6, startY: 0, speedY: 0, seed: 3),
        Shot(name: "tilted-20", tilt: 20, swing: 3, blurs: 0, noise: 8, startY: 0, speedY: 0, seed: 7),
        Shot(name: "tilted-blurred", tilt: -9, swing: 3, blurs: 1, noise: 10, startY: 0, speedY: 0, seed: 4),
        Shot(name: "moving-in", tilt: 4, swing: 2, blurs: 1, noise: 8, startY: -120, speedY: 8, seed: 5),
        Shot(name: "blurred-b", tilt: -3, swing: 2, blurs: 1, noise: 12, startY: 20, speedY: 0, seed: 8),
        Shot(name: "tilted-blurred-b", tilt: 15, swing: 3, blurs: 1, noise: 8, startY: -30, speedY: 0, seed: 9),
        Shot(name: "moving-up", tilt: -6, swing: 2, blurs: 1, noise: 8, startY: 110, speedY: -7, seed: 10),
    ]

    /// The spread scan confirms the right ISBN no later than scanning everything, except on
    /// "moving-up", where it is at most 2 frames later (see ``shots``).
    @Test(arguments: shots)
    func spreadRowsReadNoLaterThanEveryLine(_ shot: Shot) throws {
        let paths = try Self.render(shot)
        defer { try? FileManager.default.removeItem(atPath: (paths[0] as NSString).deletingLastPathComponent) }
        let everyLine = try Self.firstConfirmed(paths, lineStep: 1)
        let spread = try Self.firstConfirmed(paths, lineStep: FrameScanner.defaultLineStep)
        #expect(everyLine.isbn == "9780345391803")
        #expect(spread.isbn == "9780345391803")
        let old = try #require(everyLine.frame), new = try #require(spread.frame)
        #expect(new <= old + (shot.name == "moving-up" ? 2 : 0), "\(shot.name): \(new) frames against \(old)")
    }

    /// The same nine sequences seen by a 1920x1080 camera (``render(_:scale:)`` at 1.5), served
    /// as YUYV 1920x1080: the frame of the first confirmed ISBN for line steps 1 to 4, printed
    /// (a measurement, not an assertion: about 100 s of a debug build, so only with
    /// TTFR_1080=1). Measured 2026-12-01, steps 1/2/3/4: sharp 2/2/2/2, blurred 3/3/3/4,
    /// tilted 12° 2/2/2/3, tilted 20° 2/2/2/2, tilted and blurred 6/6/6/11, moving in
    /// 11/12/12/12, blurred b 5/8/10/8, tilted and blurred b 2/2/3/2, moving up 12/12/12/12:
    /// step 3 at 1080p (as many rows a frame as step 2 at 720p) is later than step 2 on two
    /// sequences, so the default stays 2 whatever the frame size.
    @Test(arguments: shots)
    func framesToTheFirstReadAt1080pByLineStep(_ shot: Shot) throws {
        guard ProcessInfo.processInfo.environment["TTFR_1080"] != nil else { return }
        let paths = try Self.render(shot, scale: 1.5)
        defer { try? FileManager.default.removeItem(atPath: (paths[0] as NSString).deletingLastPathComponent) }
        var line = "TTFR 1080p \(shot.name):"
        for step in 1...4 {
            let r = try Self.firstConfirmed(paths, lineStep: step, width: 1920, height: 1080)
            #expect(r.isbn == nil || r.isbn == "9780345391803")
            line += " step \(step) → \(r.frame.map(String.init) ?? "none")"
        }
        print(line)
    }

    /// Which lines a region gets, and the crops that place zbar's lines.
    @Test func linesAndSpans() {
        #expect(FrameScanner.Lines(width: 1152, height: 108) == .rows)
        #expect(FrameScanner.Lines(width: 108, height: 1152) == .columns)
        #expect(FrameScanner.Lines(width: 600, height: 400) == .both)
        // 108 rows, step 2: frame 0 rows 0, 2, …, 106; frame 1 rows 1, 3, …, 107.
        #expect(FrameScanner.span(length: 108, step: 2, offset: 0)! == (0, 107))
        #expect(FrameScanner.span(length: 108, step: 2, offset: 1)! == (1, 107))
        #expect(FrameScanner.span(length: 108, step: 3, offset: 2)! == (2, 106))
        #expect(FrameScanner.span(length: 3, step: 4, offset: 3) == nil)
        #expect(FrameScanner(region: .band, lineStep: 0).lineStep == 1)
        #expect(FrameScanner(region: .band, lineStep: 99).lineStep == 16)
    }
}
}

/// A book held still in the band: once its ISBN is confirmed, the next frames follow it on the
/// sparse lines instead of the whole scan and fit, and it is still seen (never printed twice).
extension FakeDeviceTests { @Suite struct FollowingTests {
    /// A book held still in a 1280x720 YUYV band for 30 frames (seed 11), through a continuous
    /// session: its summary, the ISBNs confirmed, the frames that read an ISBN, the frames.
    static func heldStill(_ name: String) throws -> (summary: CameraSession.Summary, printed: [String], readFrames: Int, frames: Int) {
        let shot = TimeToFirstReadTests.Shot(name: name, tilt: 0, swing: 0, blurs: 0, noise: 4, startY: 0, speedY: 0, seed: 11)
        let paths = try TimeToFirstReadTests.render(shot)
        defer { try? FileManager.default.removeItem(atPath: (paths[0] as NSString).deletingLastPathComponent) }
        try InProcessFake.configure(["FRAMES": paths.joined(separator: ":"), "FRAMES_PER_IMAGE": "1", "LOOP": "0",
                                     "FPS": "0", "FORMATS": "YUYV", "SIZES": "1280x720"])
        var options = LiveScanOptions()
        options.format = .yuyv
        options.width = 1280
        options.height = 720
        options.maxFrames = paths.count
        options.continuous = true
        options.timeout = 120
        options.spareTime = .inline
        var printed: [String] = []
        var readFrames = 0
        let summary = CameraSession(options: options).run { event in
            if case .read(_, let report) = event, !report.isbns.isEmpty { readFrames += 1 }
            if case .confirmed(_, _, _, _, _, let codes) = event { printed += codes.compactMap { $0.verdict.isbn?.isbn13 } }
            return true
        }
        return (summary, printed, readFrames, paths.count)
    }

    @Test func aConfirmedBookHeldStillIsFollowedNotScannedAgain() throws {
        let (summary, printed, readFrames, frames) = try Self.heldStill("still")
        #expect(printed == ["9780345391803"])
        #expect(summary.scannedFrames == frames)
        // The two frames that confirmed it got the whole scan; after them, following, with the
        // whole scan every 8th frame (frames 10, 18 and 26).
        #expect(FrameScanner.fullScanEvery == 8)
        #expect(summary.fullDecodes == 5)
        #expect(summary.trackedFrames == frames - 5)
        #expect(readFrames == frames)
    }
} }

/// The same book held still, counted: the sparse lines of most frames scan only where the map
/// sees bars, every ``FrameScanner/wholeRegionEvery``-th frame the whole band; the frames that
/// follow it judge it without the whole scan.
extension FakeDeviceTests { @Suite struct NarrowedLinesTests {
    @Test func theSparseLinesScanWhereTheBarsAre() throws {
        let (summary, printed, readFrames, frames) = try FollowingTests.heldStill("narrow")
        #expect(printed == ["9780345391803"])
        #expect(readFrames == frames)
        // 30 frames: the whole band in frames 1, 6, 11, 16, 21 and 26 (every 5th with line step 2).
        #expect(FrameScanner(region: .band).wholeRegionEvery == 5)
        #expect(summary.narrowedFrames == frames - 6)
        #expect(summary.trackedFrames == frames - 5)
        #expect(summary.recoveryAttempts == 0)
    }

    /// A whole scan that reads a code outside the spans its map gave makes the next frames
    /// scan the whole region; one that reads nothing there lets them narrow again.
    @Test func aCodeTheMapMissedKeepsTheWholeRegion() {
        let scanner = FrameScanner(region: .band, spareTime: .inline)
        let band = LuminanceImage(width: 1152, height: 108, filledWith: 200)
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], true))   // the first frame: whole
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], false))
        let outside = Symbol(symbology: .ean13, data: "9780345391803", quality: 3, orientation: 0,
                             place: PixelRect(x: 600, y: 10, width: 2, height: 80), pass: .full)
        // A narrowed frame's readings say nothing about the map.
        scanner.noteMapMisses([outside], narrowed: ([0..<500], false), lines: .rows)
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], false))
        scanner.noteMapMisses([outside], narrowed: ([0..<500], true), lines: .rows)
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], true))
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], true))
        // Inside a span: no miss; the 6th frame is whole all the same, the 7th narrowed.
        scanner.noteMapMisses([outside], narrowed: ([500..<700], true), lines: .rows)
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], true))
        #expect(scanner.narrowedSpans(of: band, lines: .rows)! == ([], false))
        #expect(scanner.narrowedSpans(of: LuminanceImage(width: 600, height: 400, filledWith: 200), lines: .both) == nil)
    }
} }

/// A defocused book held in the band of a camera at 30 frames/s, with the default options: the
/// cheap scan reads nothing, the spare-time recovery reads it on its own thread while the frames
/// go on, and two of its readings confirm the right ISBN.
extension FakeDeviceTests { @Suite struct SpareTimeSessionTests {
    @Test func aDefocusedBookIsPrintedByDefault() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-spare-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rect = RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
        var paths: [String] = []
        for frame in 0..<4 {
            let band = BlurredEAN13.picture("9780262510875", module: 2.5, radius: 5, sigma: 3, seed: UInt32(frame + 1),
                                            width: rect.width, height: rect.height, left: 400, top: 0, barHeight: rect.height)
            var pixels = [UInt8](repeating: 255, count: 1280 * 720)
            let source = band.pixels
            for y in 0..<rect.height {
                for x in 0..<rect.width { pixels[(y + rect.y) * 1280 + x + rect.x] = source[y * rect.width + x] }
            }
            let path = directory + "/frame-\(frame).pgm"
            try (Data("P5\n1280 720\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        try InProcessFake.configure(["FRAMES": paths.joined(separator: ":"), "FRAMES_PER_IMAGE": "1", "LOOP": "1",
                                     "FPS": "30", "FORMATS": "YUYV", "SIZES": "1280x720"])
        var options = LiveScanOptions()
        options.format = .yuyv
        options.width = 1280
        options.height = 720
        options.timeout = 120
        var printed: [String] = []
        let summary = CameraSession(options: options).run { event in
            if case .confirmed(_, _, _, _, _, let codes) = event { printed += codes.compactMap { $0.verdict.isbn?.isbn13 } }
            return true
        }
        #expect(summary.end == .confirmed)
        #expect(printed == ["9780262510875"])
        // Two recovered readings confirm it; an attempt already running when they do may
        // finish before the session ends, on a machine fast enough.
        #expect((2...3).contains(summary.recoveredFrames))
        // The frames went on while the recovery ran: more frames than attempts.
        #expect(summary.scannedFrames > summary.recoveryAttempts)
        #expect(summary.fullDecodes == 0)
    }
}
}
