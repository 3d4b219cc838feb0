// SPDX-License-Identifier: Apache-2.0
@testable import Catalog
import FakeV4L2
import Foundation
import Testing
@testable import ISBNScanCLI
import TestSupport

/// `isbnscan camera` and `isbnscan devices`, run as the built binary with the fake V4L2
/// device preloaded (LD_PRELOAD): the real open/ioctl/mmap/poll path, no camera needed.
@Suite struct CameraCommandTests {
    static let inside = testImages + "/roi/band-inside.png"        // 9780345391803 in the band
    static let outside = testImages + "/roi/band-outside.png"      // 9780060850524 above the band
    static let twoBooks = testImages + "/roi/band-two-books.png"   // 9780743273565 in, 9780451524935 above
    static let gray8 = testImages + "/isbn/png-gray8.png"          // 9780306406157

    /// A fake-device run: the environment for the binary and the fake's event log.
    struct Fake {
        let directory = FakeV4L2.temporaryDirectory()
        var log: String { directory + "/events.log" }
        var settings: [String: String]

        init(_ settings: [String: String]) { self.settings = settings }

        func environment() throws -> [String: String] {
            var env = ["LD_PRELOAD": try FakeV4L2.library(), "FAKE_V4L2_LOG": log,
                       "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            for (key, value) in settings { env["FAKE_V4L2_" + key] = value }
            return env
        }

        func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Run {
            try isbnscan(["camera"] + arguments, environment: try environment().merging(extra) { $1 })
        }

        var events: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// The device was released in order and nothing was left at exit.
        func expectReleased(streamed: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
            let events = self.events
            #expect(events.last == "exit open=0 mapped=0 streaming=0", sourceLocation: sourceLocation)
            #expect(events.contains("close"), sourceLocation: sourceLocation)
            if streamed {
                let off = events.firstIndex { $0.hasPrefix("streamoff") }
                let unmaps = events.indices.filter { events[$0] == "munmap" }
                let close = events.lastIndex(of: "close")
                #expect(unmaps.count == 4, sourceLocation: sourceLocation)
                #expect(off != nil && close != nil && off! < unmaps.first! && unmaps.last! < close!, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func onceprintsTheISBNAndReleasesTheCamera() throws {
        let fake = Fake(["FRAMES": Self.inside])
        let run = try fake.run(["--timeout", "20"])
        #expect(run.status == 0)
        #expect(run.stdout == "9780345391803\n")
        #expect(run.stderr.contains("camera: /dev/video0: 'Fake Camera' (driver fakev4l2)\n"))
        #expect(run.stderr.contains("camera: YUYV 1280x720 at 30 fps, scanning 1152x108 pixels at (64,288) (region 0.05,0.4,0.9,0.15); stops at the first ISBN\n"))
        #expect(run.stderr.contains(", 1 ISBN printed\n"))
        #expect(fake.events.contains("s_fmt YUYV 1280x720"))
        fake.expectReleased()
        // Without --preview the band cannot be seen: the status line says where to hold the book.
        #expect(run.stderr.contains("camera: only the band across the middle of the picture is read: hold the barcode there, bars upright (5%...95% of the width, 40%...55% of the height); --preview shows it, --roi 0,0,1,1 reads the whole picture\n"))
        let whole = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--roi", "0,0,1,1", "--max-frames", "20"])
        #expect(whole.stderr.contains("camera: hold the book's barcode anywhere in the picture\n"))
    }

    @Test(arguments: ["YUYV", "GREY", "NV12", "MJPG", "MJPG-NODHT", "MJPG-422", "MJPG-RST"])
    func everyFormat(format: String) throws {
        let fake = Fake(["FRAMES": Self.inside, "FORMATS": format, "FPS": "0"])
        let run = try fake.run(["--size", "640x480", "--format", String(format.prefix(4)), "--max-frames", "50"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "9780345391803\n")
        #expect(run.stderr.contains("camera: \(format.prefix(4)) 640x480"))
    }

    @Test func autoFormatPrefersRawLuminanceOverMJPEG() throws {
        let fake = Fake(["FRAMES": Self.inside, "FORMATS": "MJPG,YUYV", "FPS": "0"])
        let run = try fake.run(["--max-frames", "50", "-q"])
        #expect(run.stdout == "9780345391803\n")
        #expect(fake.events.contains("s_fmt YUYV 1280x720"))
        #expect(run.stderr == "")
    }

    @Test func readIOFallback() throws {
        let fake = Fake(["FRAMES": Self.inside, "IO": "read", "FPS": "0"])
        let run = try fake.run(["--max-frames", "50"])
        #expect(run.status == 0)
        #expect(run.stdout == "9780345391803\n")
        #expect(run.stderr.contains("(driver fakev4l2), read() I/O\n"))
        #expect(fake.events.last == "exit open=0 mapped=0 streaming=0")
    }

    @Test func continuousReportsEachBookOnce() throws {
        // Three books, 6 frames each, then white frames; the second shows one book in the
        // band and one above it, which must not be reported.
        let fake = Fake(["FRAMES": [Self.inside, Self.twoBooks, Self.gray8].joined(separator: ":"),
                         "FRAMES_PER_IMAGE": "6", "LOOP": "0", "FPS": "0", "SIZES": "640x480"])
        let run = try fake.run(["--continuous", "--max-frames", "30"])
        #expect(run.status == 0)
        #expect(run.stdout == "9780345391803\n9780743273565\n9780306406157\n")
        #expect(run.stderr.contains("camera: 30 frames in "))
        #expect(run.stderr.contains(", 3 ISBNs printed\n"))
        fake.expectReleased()
    }

    @Test func continuousRepeatsABookOnlyAfterItLeftTheView() throws {
        let frames = [Self.inside, "blank", Self.inside].joined(separator: ":")
        let settings = ["FRAMES": frames, "FRAMES_PER_IMAGE": "5", "LOOP": "0", "FPS": "0", "SIZES": "640x480"]
        let again = try Fake(settings).run(["--continuous", "--max-frames", "15", "--repeat-after", "0", "-q"])
        #expect(again.stdout == "9780345391803\n9780345391803\n")
        // The summary counts the second print as a duplicate.
        let summary = try Fake(settings).run(["--continuous", "--max-frames", "15", "--repeat-after", "0"])
        #expect(summary.stderr.contains(", 2 ISBNs printed\ncamera: 1 different ISBN, 1 duplicate (printed again after leaving the view)\n"))
        let once = try Fake(settings).run(["--continuous", "--max-frames", "15", "--repeat-after", "600", "-q"])
        #expect(once.stdout == "9780345391803\n")
    }

    @Test func confirmFramesRulesOutASingleFrame() throws {
        // The book is in view for exactly 2 frames: 2 confirmations print it, 3 do not.
        let settings = ["FRAMES": "blank:\(Self.inside)", "FRAMES_PER_IMAGE": "2", "LOOP": "0", "FPS": "0", "SIZES": "640x480"]
        #expect(try Fake(settings).run(["--max-frames", "10", "--confirm-frames", "2", "-q"]).stdout == "9780345391803\n")
        let three = try Fake(settings).run(["--max-frames", "10", "--confirm-frames", "3", "-q"])
        #expect(three.stdout == "")
        #expect(three.status == 4)
    }

    @Test func barcodeOutsideTheBandIsNotReported() throws {
        let fake = Fake(["FRAMES": Self.outside, "FPS": "0", "SIZES": "640x480"])
        let run = try fake.run(["--max-frames", "20"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("camera: 20 frames in "))
        // The same frames with the whole frame as region: found, so the band made the difference.
        let whole = try Fake(["FRAMES": Self.outside, "FPS": "0", "SIZES": "640x480"]).run(["--max-frames", "20", "--roi", "0,0,1,1"])
        #expect(whole.stdout == "9780060850524\n")
        // The AVFoundation form of the band behaves like --roi.
        let av = try Fake(["FRAMES": Self.outside, "FPS": "0", "SIZES": "640x480"]).run(["--max-frames", "20", "--roi-avfoundation", "0.4,0.05,0.15,0.9"])
        #expect(av.stdout == "")
    }

    @Test func jsonLinesHaveTheKeysOfScanWithDeviceAndFrame() throws {
        let fake = Fake(["FRAMES": Self.inside, "FPS": "0"])
        let run = try fake.run(["--json", "--max-frames", "50"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["device", "frame", "time", "width", "height", "symbols", "isbns", "rejected", "error"])
        #expect(object["device"] as? String == "/dev/video0")
        // When it was confirmed: ISO 8601 UTC to the millisecond, today.
        let time = try #require(object["time"] as? String)
        #expect(time.hasPrefix(String(Timestamp.now().prefix(10)) + "T") && time.hasSuffix("Z") && time.count == 24)
        #expect(lines[0].hasPrefix("{\"device\": \"/dev/video0\", \"frame\": 2, \"time\": \"\(time)\", \"width\": 1280, "))
        #expect(object["frame"] as? Int == 2)   // seen in frames 1 and 2: confirmed at 2
        #expect(object["width"] as? Int == 1280)
        #expect(object["height"] as? Int == 720)
        let isbns = try #require(object["isbns"] as? [[String: Any]])
        #expect(isbns.first?["isbn13"] as? String == "9780345391803")
        #expect(isbns.first?["isbn10"] as? String == "0345391802")
        let symbol = try #require((object["symbols"] as? [[String: Any]])?.first)
        // Polygon in frame pixels: the band starts at y 288, and the 800x600 picture is
        // centred on the 1280x720 frame, so its barcode (y 255...315) lies at y 315...375.
        let ys = try #require(symbol["polygon"] as? [[Int]]).map { $0[1] }
        #expect(ys.allSatisfy { (288...396).contains($0) })
        #expect(symbol["verdict"] as? String == "accepted")
    }

    @Test func refusedCodeIsAWarningOnceAndNoResult() throws {
        let fake = Fake(["FRAMES": testImages + "/rejected/isbn979.png", "FPS": "0"])
        let run = try fake.run(["--continuous", "--max-frames", "10"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
        #expect(warnings == ["Warning: frame 2: EAN-13 9791032305690 refused, prefix: prefix 979 is not 978: ISBN-13 in the 979 range"])
    }

    /// The preview's status strip starts with the region --roi gave, not the default band.
    @Test func previewStatusNamesTheRegionOfInterestGiven() throws {
        let parsed = try ArgumentParser.parse(["--preview", "--roi", "0.1,0.2,0.5,0.25"],
                                              spec: ISBNScanCommand.withHelpOption(CameraCommand.spec))
        let reporter = CameraReporter(settings: try CameraCommand.settings(from: parsed), stdout: StringSink(), stderr: StringSink())
        let status = try #require(reporter.preview?.withLock { $0.status })
        #expect(status == "0.0 fps  0 ISBNs  region: 0.1,0.2,0.5,0.25")
    }

    @Test func addOnsArePrintedAfterTheISBN() throws {
        let run = try Fake(["FRAMES": testImages + "/isbn/addon-ean5.png", "FPS": "0"]).run(["--addons", "--max-frames", "10", "-q"])
        #expect(run.stdout == "9780553293357 51299\n")
    }

    /// `camera --db` with a catalogue another writer holds past the lock timeout: the ISBN it
    /// cannot record is not printed, and the session stops with exit 1.
    @Test func anISBNThatCannotBeRecordedIsNotPrinted() throws {
        let db = NSTemporaryDirectory() + "isbnscan-camera-locked-\(getpid()).db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        _ = try Catalog(path: db)
        let holder = try Connection(path: db)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let run = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--db", db, "--max-frames", "20", "-q"],
                                                                    environment: ["ISBNSCAN_LOCK_TIMEOUT": "1"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: \(db): the catalogue stayed locked by another writer for 1 s"))
        #expect(run.stderr.hasSuffix("; stopping: 9780345391803 not recorded, so not printed either\n"))
    }

    /// `camera --db`: a shelf scanned from photos, then the same book at the webcam.
    @Test func catalogueWarnsAboutABookAlreadyScanned() throws {
        let db = NSTemporaryDirectory() + "isbnscan-camera-\(UUID().uuidString).db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        let photo = try isbnscan(["scan", "--db", db, Self.inside])
        #expect(photo.stdout == "9780345391803\n")
        let today = String(Timestamp.now().prefix(10))

        let run = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--db", db, "--max-frames", "20", "--json"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("Warning: 9780345391803: already scanned \(today) from band-inside.png\n"))
        let beep = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--db", db, "--beep", "-q", "--max-frames", "20"])
        #expect(beep.stdout == "9780345391803\n")
        #expect(beep.stderr == "\u{7}\u{7}")

        let list = try isbnscan(["catalog", "list", "--db", db])
        #expect(list.stdout.hasPrefix("9780345391803 978-0-345-39180-3 978-0 3 \(today)"))
        #expect(list.stdout.hasSuffix(" \(Self.inside)\n"))
        let stats = try isbnscan(["catalog", "stats", "--db", db])
        #expect(stats.stdout.hasPrefix("books: 1 (3 sightings, 2 from a camera)\n"))
    }

    /// A book first seen by the camera is named by the camera's node, as in the catalogue and --json.
    @Test func bookSeenBeforeByTheCameraNamesItsDevice() throws {
        let db = NSTemporaryDirectory() + "isbnscan-camera-\(UUID().uuidString).db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        let first = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--db", db, "--max-frames", "20"])
        #expect(first.stdout == "9780345391803\n")
        let again = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--db", db, "--max-frames", "20"])
        let today = String(Timestamp.now().prefix(10))
        #expect(again.stderr.contains("Warning: 9780345391803: already scanned \(today) from /dev/video0\n"))
    }

    @Test func newBookBeepsOnceWithACatalogue() throws {
        let db = NSTemporaryDirectory() + "isbnscan-camera-\(UUID().uuidString).db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        let run = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--db", db, "--beep", "-q", "--max-frames", "20"])
        #expect(run.stdout == "9780345391803\n")
        #expect(run.stderr == "\u{7}")
        let export = try isbnscan(["catalog", "export", "--db", db, "--format", "isbn-list"])
        #expect(export.stdout == "9780345391803\n")
    }

    @Test func beepRingsTheBellOnStderr() throws {
        let run = try Fake(["FRAMES": Self.inside, "FPS": "0"]).run(["--beep", "-q", "--max-frames", "20"])
        #expect(run.stdout == "9780345391803\n")
        #expect(run.stderr == "\u{7}")
    }

    @Test func timeoutWithNothingFoundExitsFour() throws {
        let fake = Fake(["FRAMES": "blank"])
        let run = try fake.run(["--timeout", "0.5"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr.contains(", 0 ISBNs printed; --timeout of 0.50 s reached\n"))
        fake.expectReleased()
    }

    @Test(arguments: [
        (["FAULT": "busy"], [String](), "Error: /dev/video0: device busy (open): another program is using the camera\n"),
        (["FAULT": "busy-fmt"], [], "Error: /dev/video0: device busy (VIDIOC_S_FMT): another program is using the camera\n"),
        (["FAULT": "eacces"], [], "Error: /dev/video0: permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER) and log in again\n"),
        (["FAULT": "notcapture"], [], "Error: /dev/video0: 'Fake Camera' is not a video capture device\n"),
        ([:], ["--device", "/nonexistent/video9"], "Error: /nonexistent/video9: no such device (is the camera plugged in? 'isbnscan devices' lists them)\n"),
        (["FORMATS": "YUYV,MJPG"], ["--format", "GREY"], "Error: /dev/video0: pixel format GREY not supported; the device offers YUYV, MJPG\n"),
        (["FORMATS": "YUYV"], ["--format", "MJPG"], "Error: /dev/video0: pixel format MJPG not supported; the device offers YUYV\n"),
    ])
    func openAndFormatErrors(settings: [String: String], arguments: [String], message: String) throws {
        let fake = Fake(settings)
        let run = try fake.run(arguments + ["--timeout", "5", "-q"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == message)
        #expect(fake.events.last == "exit open=0 mapped=0 streaming=0")
    }

    @Test func unpluggedMidStreamExitsOneAfterReleasing() throws {
        let fake = Fake(["FRAMES": "blank", "FAULT": "enodev-after:5", "FPS": "0"])
        let run = try fake.run(["--continuous"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Error: /dev/video0: device unplugged (VIDIOC_DQBUF failed with ENODEV)\n"))
        // STREAMOFF fails on a device that is gone (ENODEV); the buffers are unmapped anyway.
        #expect(fake.events.contains("unplugged after 5 frames"))
        #expect(fake.events.filter { $0 == "munmap" }.count == 4)
        fake.expectReleased(streamed: false)
    }

    @Test func stalledCameraIsAnError() throws {
        let fake = Fake(["FRAMES": "blank", "FAULT": "stall-after:3", "FPS": "0"])
        let run = try fake.run(["--continuous", "--frame-timeout", "0.3"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Error: /dev/video0: no frame from the camera for 0.3 s (stalled device or driver)\n"))
        fake.expectReleased()
    }

    @Test func eagainFromTheDriverIsRetried() throws {
        let run = try Fake(["FRAMES": Self.inside, "FAULT": "eagain", "FPS": "0"]).run(["--max-frames", "20", "-q"])
        #expect(run.status == 0)
        #expect(run.stdout == "9780345391803\n")
    }

    @Test(arguments: [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")])
    func signalStopsWithStatus130AfterReleasing(signal: Int32, name: String) throws {
        let fake = Fake(["FRAMES": "blank", "FPS": "30"])
        let errPath = fake.directory + "/stderr"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = ["camera", "--continuous"]
        process.environment = try fake.environment()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Wait until it streams (the fake logs streamon), then signal it.
        var waited = 0
        while !fake.events.contains("streamon") && waited < 600 && process.isRunning {
            usleep(50_000)
            waited += 1
        }
        #expect(fake.events.contains("streamon"))
        kill(process.processIdentifier, signal)
        waited = 0
        while process.isRunning && waited < 200 {   // 10 s, then fail rather than hang
            usleep(50_000)
            waited += 1
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try err.close()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(stderr.hasSuffix("camera: interrupted by \(name); camera released\n"))
        // The summary comes first: frames, ISBNs, duplicates.
        #expect(stderr.contains(" ISBNs printed\ncamera: 0 different ISBNs, 0 duplicates (printed again after leaving the view)\ncamera: interrupted by \(name)"))
        #expect(stderr.split(separator: "\n").contains { $0.hasPrefix("camera: ") && $0.contains(" frame") && $0.hasSuffix(", 0 ISBNs printed") })
        fake.expectReleased()
    }

    @Test(arguments: [
        (["--once", "--continuous"], "Error: give either --once or --continuous, not both"),
        (["--size", "big"], "Error: --size 'big' is not WIDTHxHEIGHT in pixels (e.g. 1280x720)"),
        (["--format", "H264"], "Error: --format 'H264' is not one of auto, GREY, YUYV, NV12, YU12, MJPG"),
        (["--fps", "0"], "Error: --fps 0 is outside 1...240"),
        (["--timeout", "soon"], "Error: --timeout 'soon' is not a number of seconds (0...86400)"),
        (["--timeout", "0"], "Error: --timeout must be more than 0 seconds"),
        (["--confirm-frames", "0"], "Error: --confirm-frames 0 is outside 1...100"),
        (["--line-step", "17"], "Error: --line-step 17 is outside 1...16"),
        (["--roi", "0.5,0.5,0.6,0.1"], "Error: --roi: x+width is 1.1, past the image edge at 1"),
        (["extra"], "Error: unexpected argument 'extra'"),
        (["--preview-snapshot", "a.ppm"], "Error: --preview-snapshot needs --preview"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let run = try isbnscan(["camera"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(message + "\nUsage: isbnscan camera "))
    }

    @Test func helpTexts() throws {
        let camera = try isbnscan(["camera", "--help"])
        #expect(camera.status == 0)
        #expect(camera.stdout.hasPrefix("OVERVIEW: Hold a book up to a webcam (V4L2) and print its ISBN.\n"))
        #expect(camera.stdout.contains("  130  interrupted by Ctrl-C (SIGINT) or SIGTERM, after releasing the camera\n"))
        let devices = try isbnscan(["help", "devices"])
        #expect(devices.stdout.hasPrefix("OVERVIEW: List the video devices (/dev/video*)"))
        let overview = try isbnscan(["--help"])
        #expect(overview.stdout.contains("  camera                  Hold a book up to a webcam (V4L2) and print its ISBN.\n"))
        #expect(overview.stdout.contains("  devices                 List the video devices (/dev/video*) and their formats.\n"))
    }

    // MARK: devices

    /// Runs `isbnscan devices` over a fake /dev holding `nodes` (the fake serves `video0`, and
    /// is served from another folder when `nodes` has no `video0`: its own folder lists it).
    func devices(_ nodes: [String], settings: [String: String] = [:], json: Bool = false) throws -> (Run, String) {
        var fake = Fake(settings)
        let dev = fake.directory + "/dev"
        try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
        for node in nodes { _ = FileManager.default.createFile(atPath: dev + "/" + node, contents: nil) }
        fake.settings["DEVICE"] = nodes.contains("video0") ? dev + "/video0" : fake.directory + "/elsewhere/video0"
        var env = try fake.environment()
        env["ISBNSCAN_DEV_DIR"] = dev
        return (try isbnscan(["devices"] + (json ? ["--json"] : []), environment: env), dev)
    }

    @Test func devicesListsFormatsAndSizes() throws {
        let (run, dev) = try devices(["video0", "vbi0", "video-notes"], settings: ["FORMATS": "YUYV,MJPG", "SIZES": "640x480,1280x720"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            \(dev)/video0: 'Fake Camera' (driver fakev4l2, bus fake:0), capture, streaming
              YUYV  YUYV 4:2:2: 640x480 1280x720
              MJPG  Motion-JPEG (compressed): 640x480 1280x720

            """)
        #expect(run.stderr == "")
    }

    @Test func devicesJSON() throws {
        let (run, dev) = try devices(["video0"], settings: ["FORMATS": "GREY", "SIZES": "320x240"], json: true)
        #expect(run.stdout == """
            {"device": "\(dev)/video0", "driver": "fakev4l2", "card": "Fake Camera", "bus": "fake:0", "capture": true, \
            "streaming": true, "read": false, "formats": [{"fourcc": "GREY", "description": "8-bit Greyscale", \
            "compressed": false, "sizes": ["320x240"]}], "error": null}

            """)
    }

    @Test func devicesReportsNodesThatAreNotCaptureDevices() throws {
        let (run, dev) = try devices(["video0", "video1"], settings: ["FAULT": "notcapture"])
        // video1 is a plain file: not a V4L2 device (exit 1); video0 is an output-only device.
        #expect(run.status == 1)
        #expect(run.stdout == "\(dev)/video0: 'Fake Camera' (driver fakev4l2, bus fake:0), not a capture device\n")
        #expect(run.stderr == "Error: \(dev)/video1: not a V4L2 video device\n")
    }

    @Test func devicesWithNoneExitsFour() throws {
        let (run, _) = try devices([])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr == "No video devices (/dev/video*) found.\n")
    }

    /// The fake camera, preloaded, is in its folder's listing as a real camera is in /dev's, so
    /// `devices` lists it (`make try-camera` shows it so) and nothing else of the folder.
    @Test func devicesListsThePreloadedFakeCamera() throws {
        let fake = Fake([:])
        let dev = fake.directory + "/dev"
        try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dev + "/notes.txt", contents: nil)
        var env = try fake.environment()
        env["FAKE_V4L2_DEVICE"] = dev + "/video2"
        env["ISBNSCAN_DEV_DIR"] = dev + "/"
        let run = try isbnscan(["devices"], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(dev)/video2: 'Fake Camera' (driver fakev4l2, bus fake:0), capture, streaming\n"), "\(run.stdout)")
        #expect(run.stdout.split(separator: "\n").filter { !$0.hasPrefix("  ") }.count == 1, "\(run.stdout)")
        #expect(run.stderr == "")
    }

    /// A barcode rendered by zint (installed by make deps) into a temporary folder: EAN-13 of
    /// the 12 digits `body`, 2 pixels per module.
    static func rendered(_ body: String, in directory: String) throws -> String {
        let path = "\(directory)/\(body).png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
        process.arguments = ["-b", "13", "--scale=2", "-d", body, "-o", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "zint failed for \(body)")
        return path
    }

    @Test func aRivalMisreadInSingleFramesIsNeverPrinted() throws {
        // 9780306406751 is what a 1<->7 confusion makes of 9780306406157 (the check digit holds).
        // It appears in single frames between the right code's, at the same place: it is never
        // printed, and the right code is printed once it clearly outnumbers it.
        let directory = FakeV4L2.temporaryDirectory()
        let right = try Self.rendered("978030640615", in: directory), rival = try Self.rendered("978030640675", in: directory)
        let frames = [rival, right, rival, right, right, right, right, right, right, right, right, right]
        let fake = Fake(["FRAMES": frames.joined(separator: ":"), "FRAMES_PER_IMAGE": "1", "LOOP": "0",
                         "FPS": "30", "SIZES": "640x480"])
        let run = try fake.run(["--continuous", "--roi", "0,0,1,1", "--max-frames", "16"])
        #expect(run.stdout == "9780306406157\n")
        #expect(!run.stdout.contains("9780306406751"))
        fake.expectReleased()
    }

    @Test func twoGlimpsesFarApartDoNotConfirmACode() throws {
        // The book is in view for one frame, then 1.5 s of white frames, then one frame again.
        let directory = FakeV4L2.temporaryDirectory()
        let right = try Self.rendered("978030640615", in: directory)
        let frames = [right] + Array(repeating: "blank", count: 15) + [right]
        let fake = Fake(["FRAMES": frames.joined(separator: ":"), "FRAMES_PER_IMAGE": "1", "LOOP": "0",
                         "FPS": "10", "SIZES": "640x480"])
        let run = try fake.run(["--roi", "0,0,1,1", "--max-frames", "20"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        // Shown for two frames in a row, it is printed.
        let steady = Fake(["FRAMES": ([right, right] + Array(repeating: "blank", count: 4)).joined(separator: ":"),
                           "FRAMES_PER_IMAGE": "1", "LOOP": "0", "FPS": "10", "SIZES": "640x480"])
        #expect(try steady.run(["--roi", "0,0,1,1", "--max-frames", "6"]).stdout == "9780306406157\n")
    }
}
