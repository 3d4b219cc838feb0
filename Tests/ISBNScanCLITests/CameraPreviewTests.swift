// SPDX-License-Identifier: Apache-2.0
import FakeV4L2
import Foundation
import Testing
import TestSupport

/// `camera --preview` under Xvfb (started here, SDL_VIDEODRIVER=x11) against the fake V4L2
/// device: the picture (`--preview-snapshot`), the keys (xdotool), closing the window (a
/// WM_DELETE_WINDOW message from `Tests/FakeV4L2/xclose.c`), and no display at all.
/// `make deps` installs xvfb, xdotool, x11-apps, netpbm and libx11-dev.
@Suite(.serialized) struct CameraPreviewTests {
    static let inside = testImages + "/roi/band-inside.png"     // 9780345391803 in the band
    static let outside = testImages + "/roi/band-outside.png"   // 9780060850524 above the band

    /// An Xvfb server for one test (`-displayfd` says when it is ready and which display it
    /// took), killed by ``stop()``. SIGKILL: Swift Testing's threads may block SIGTERM, and a
    /// child inherits that mask. Its lock file and socket are removed with it.
    final class Xvfb {
        let process = Process()
        let display: String

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            process.arguments = ["-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.hasSuffix("\n") {
                let byte = pipe.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { throw FakeV4L2.BuildError(message: "Xvfb ended before it was ready") }
                text += String(decoding: byte, as: UTF8.self)
            }
            display = ":" + text.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let number = display.dropFirst()
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }

        deinit { stop() }
    }

    /// `xclose`, built once per process.
    static let xclose: Result<String, FakeV4L2.BuildError> = {
        let output = FakeV4L2.temporaryDirectory() + "/xclose"
        let source = URL(fileURLWithPath: FakeV4L2.source).deletingLastPathComponent().appendingPathComponent("xclose.c").path
        guard let status = try? tool("/usr/bin/env", ["cc", "-o", output, source, "-lX11"]), status == 0 else {
            return .failure(.init(message: "cc failed for xclose.c (libx11-dev missing?)"))
        }
        return .success(output)
    }()

    /// Runs `path arguments` and returns its exit status.
    @discardableResult
    static func tool(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A running `isbnscan camera --preview` on the fake device.
    final class Session {
        /// Outside FakeV4L2's folder: the in-process capture tests count this process's open
        /// files whose path names "fakev4l2", and may run meanwhile.
        let directory: String = {
            let path = NSTemporaryDirectory() + "isbnscan-preview-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }()
        let process = Process()
        let display: String
        var log: String { directory + "/events.log" }
        var snapshot: String { directory + "/snapshot.ppm" }

        init(_ settings: [String: String], arguments: [String], display: String?, environment extra: [String: String] = [:]) throws {
            self.display = display ?? ""
            var env = ["LD_PRELOAD": try FakeV4L2.library(), "FAKE_V4L2_LOG": log, "SDL_VIDEODRIVER": "x11",
                       "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            if let display { env["DISPLAY"] = display } else { env["SDL_VIDEODRIVER"] = nil }
            for (key, value) in settings { env["FAKE_V4L2_" + key] = value }
            env.merge(extra) { $1 }
            process.executableURL = URL(fileURLWithPath: isbnscanBinary)
            process.arguments = ["camera", "--preview", "--preview-snapshot", snapshot] + arguments
            process.environment = env
            for name in ["out", "err"] { _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: nil) }
            let out = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/out"))
            let err = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/err"))
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
            try out.close()   // the child has its own copies
            try err.close()
        }

        var stdout: String { (try? String(contentsOfFile: directory + "/out", encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: directory + "/err", encoding: .utf8)) ?? "" }
        var events: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Waits (at most 30 s) until `condition` holds or the process ended.
        @discardableResult
        func wait(until condition: () -> Bool) -> Bool {
            for _ in 0..<600 where process.isRunning {
                if condition() { return true }
                usleep(50_000)
            }
            return condition()
        }

        /// The window's X id (xdotool search --sync waits for it to be mapped).
        func window() throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
            p.arguments = ["search", "--sync", "--all", "--pid", String(process.processIdentifier), "--name", "isbnscan camera"]
            p.environment = ["DISPLAY": display]
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return try #require(text.split(separator: "\n").first.map(String.init))
        }

        /// The whole X screen (`xwd -root | xwdtopnm`).
        func screenshot() throws -> Picture {
            let path = directory + "/screen.ppm"
            let shell = "xwd -root -silent -display '\(display)' | xwdtopnm 2>/dev/null | pnmdepth 255 > '\(path)'"
            #expect(try CameraPreviewTests.tool("/bin/sh", ["-c", shell]) == 0)
            return try Picture(path: path)
        }

        /// The window's top-left corner on the screen (xdotool getwindowgeometry).
        func windowPosition() throws -> (x: Int, y: Int) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
            p.arguments = ["getwindowgeometry", "--shell", try window()]
            p.environment = ["DISPLAY": display]
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            var values: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
            }
            return (try #require(values["X"]), try #require(values["Y"]))
        }

        /// Gives the window the keyboard focus (no window manager under Xvfb) and types `key`.
        func key(_ key: String) throws {
            let id = try window()
            try CameraPreviewTests.tool("/usr/bin/xdotool", ["windowfocus", "--sync", id], environment: ["DISPLAY": display])
            try CameraPreviewTests.tool("/usr/bin/xdotool", ["key", key], environment: ["DISPLAY": display])
        }

        /// Waits for the end (at most 20 s, then SIGKILL so that a test fails rather than hangs).
        func finish() -> Int32 {
            for _ in 0..<400 where process.isRunning { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// A test that failed half-way leaves no window behind for the next one.
        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// The device was released in order and nothing was left at exit.
        func expectReleased(sourceLocation: SourceLocation = #_sourceLocation) {
            let events = self.events
            #expect(events.last == "exit open=0 mapped=0 streaming=0", sourceLocation: sourceLocation)
            let off = events.firstIndex { $0.hasPrefix("streamoff") }
            let unmaps = events.indices.filter { events[$0] == "munmap" }
            let close = events.lastIndex(of: "close")
            #expect(unmaps.count == 4, sourceLocation: sourceLocation)
            #expect(off != nil && close != nil && off! < unmaps.first! && unmaps.last! < close!, sourceLocation: sourceLocation)
        }
    }

    /// A binary PPM (P6, 8-bit) as written by --preview-snapshot.
    struct Picture {
        let width: Int, height: Int
        let rgb: [UInt8]

        init(path: String) throws {
            let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            var fields: [String] = [], at = 0
            while fields.count < 4 {
                while at < data.count, data[at] == 0x20 || data[at] == 0x0A { at += 1 }
                let start = at
                while at < data.count, data[at] != 0x20 && data[at] != 0x0A { at += 1 }
                fields.append(String(decoding: data[start..<at], as: UTF8.self))
            }
            at += 1
            try #require(fields[0] == "P6" && fields[3] == "255")
            width = try #require(Int(fields[1]))
            height = try #require(Int(fields[2]))
            rgb = Array(data[at...])
            try #require(rgb.count == width * height * 3)
        }

        func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let i = (y * width + x) * 3
            return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
        }

        /// The region frame's red (255, 0, 0), not the fake's dark red bars.
        func isRed(_ x: Int, _ y: Int) -> Bool { let p = pixel(x, y); return p.r > 230 && p.g < 40 && p.b < 40 }
        func isGreen(_ x: Int, _ y: Int) -> Bool { let p = pixel(x, y); return p.g > 230 && p.r < 40 && p.b < 40 }
    }

    @Test func snapshotShowsTheBandAlongItsEdgesAndTheCodeReadInGreen() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let display = xvfb.display
        let session = try Session(["FRAMES": Self.inside, "SIZES": "640x480", "CHROMA": "neutral"],
                                  arguments: ["--size", "640x480", "--continuous", "--json"], display: display)
        #expect(session.wait { session.stdout.hasSuffix("\n") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
        let symbol = try #require((object["symbols"] as? [[String: Any]])?.first)
        let polygon = try #require(symbol["polygon"] as? [[Int]])
        // What the X server shows (xwd -root), a few redraws later: the window, with the red frame
        // at the band's place and the code outlined in green.
        let origin = try session.windowPosition()
        var screen = try session.screenshot()
        for _ in 0..<20 where !polygon.allSatisfy({ screen.isGreen(origin.x + $0[0], origin.y + $0[1]) }) {
            usleep(250_000)   // the window has not drawn the outline yet (a loaded machine)
            screen = try session.screenshot()
        }
        let red = { (x: Int, y: Int) in screen.isRed(origin.x + x, origin.y + y) }
        #expect(red(32, 228) && red(607, 228) && !red(31, 228) && !red(39, 228))
        #expect(polygon.allSatisfy { screen.isGreen(origin.x + $0[0], origin.y + $0[1]) })
        try session.key("q")
        #expect(session.finish() == 0)   // ended from the window: a normal end
        session.expectReleased()
        #expect(session.stderr.hasSuffix("camera: stopped from the preview window; camera released\n"))

        let picture = try Picture(path: session.snapshot)
        #expect(picture.width == 640 && picture.height == 480 + 12)   // the frame, then the status strip
        // The band 0.05,0.4,0.9,0.15 of 640x480: x 32..<608, y 192..<264; border 7 px, radius 10.
        let (x0, y0, x1, y1) = (32, 192, 608, 264)
        for y in [y0 + 20, (y0 + y1) / 2, y1 - 20] {
            #expect(picture.isRed(x0, y) && picture.isRed(x0 + 6, y), "left edge at y \(y)")
            #expect(!picture.isRed(x0 - 1, y) && !picture.isRed(x0 + 7, y), "left edge at y \(y)")
            #expect(picture.isRed(x1 - 1, y) && picture.isRed(x1 - 7, y), "right edge at y \(y)")
            #expect(!picture.isRed(x1, y) && !picture.isRed(x1 - 8, y), "right edge at y \(y)")
        }
        for x in [x0 + 40, x1 - 40] {   // left and right of the barcode (x 225...415)
            #expect(picture.isRed(x, y0) && picture.isRed(x, y0 + 6) && !picture.isRed(x, y0 - 1) && !picture.isRed(x, y0 + 7))
            #expect(picture.isRed(x, y1 - 1) && picture.isRed(x, y1 - 7) && !picture.isRed(x, y1) && !picture.isRed(x, y1 - 8))
        }
        // Rounded corners: the region's corner pixels are not painted.
        #expect(!picture.isRed(x0, y0) && !picture.isRed(x1 - 1, y1 - 1))
        // No red anywhere else.
        var stray = 0
        for y in 0..<480 { for x in 0..<640 where picture.isRed(x, y) && !(x0..<x1 ~= x && y0..<y1 ~= y) { stray += 1 } }
        #expect(stray == 0)
        // The code read: its polygon outlined in green (corners and the middle of each side).
        let corners = polygon.map { ($0[0], $0[1]) }
        for (i, a) in corners.enumerated() {
            let b = corners[(i + 1) % corners.count]
            #expect(picture.isGreen(a.0, a.1), "corner \(a)")
            #expect(picture.isGreen((a.0 + b.0) / 2, (a.1 + b.1) / 2), "side from \(a) to \(b)")
        }
        // Inside the outline, the picture (grey: the fake sends neutral chroma here).
        let centre = picture.pixel((corners[0].0 + corners[2].0) / 2, (corners[0].1 + corners[2].1) / 2)
        #expect(!picture.isGreen((corners[0].0 + corners[2].0) / 2, (corners[0].1 + corners[2].1) / 2))
        #expect(abs(centre.r - centre.g) < 20 && abs(centre.g - centre.b) < 20)

        // The README's screenshot, when asked for (ISBNSCAN_README_SCREENSHOT=path.png).
        if let target = ProcessInfo.processInfo.environment["ISBNSCAN_README_SCREENSHOT"] {
            let shell = "pnmtopng -compression 9 '\(session.snapshot)' > '\(target)'"
            #expect(try Self.tool("/bin/sh", ["-c", shell]) == 0)
        }
    }

    @Test func uUndoesTheLastISBNAndRemovesItFromTheCatalogue() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let display = xvfb.display
        let db = FakeV4L2.temporaryDirectory() + "/shelf.db"
        // The fake's frames carry strong chroma: the window shows them in colour.
        let session = try Session(["FRAMES": Self.inside, "SIZES": "640x480"],
                                  arguments: ["--size", "640x480", "--continuous", "--db", db], display: display)
        #expect(session.wait { session.stdout == "9780345391803\n" })
        try session.key("u")
        #expect(session.wait { session.stderr.contains("camera: undone 9780345391803 (removed from the catalogue)\n") })
        try session.key("Escape")
        #expect(session.finish() == 0)   // ended from the window: a normal end
        session.expectReleased()
        #expect(session.stderr.contains("camera: 0 different ISBNs, 0 duplicates (printed again after leaving the view), 1 undone\n"))
        let export = try isbnscan(["catalog", "export", "--db", db, "--format", "isbn-list"])
        #expect(export.status == 4)   // an empty catalogue
        #expect(export.stdout == "")
        // White paper with the fake's U 0x10 / V 0xF0 is yellow: colour reaches the window.
        let corner = try Picture(path: session.snapshot).pixel(5, 5)
        #expect(corner.r > 200 && corner.g > 180 && corner.b < 100, "\(corner)")
    }

    @Test func rSwitchesTheRegionToTheWholeFrame() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let display = xvfb.display
        // The barcode lies above the band: nothing until `r` makes the whole frame the region.
        let session = try Session(["FRAMES": Self.outside, "SIZES": "640x480"],
                                  arguments: ["--size", "640x480", "--continuous"], display: display)
        #expect(session.wait { session.events.contains("streamon") })
        usleep(500_000)
        #expect(session.stdout == "")
        try session.key("r")
        #expect(session.wait { session.stdout == "9780060850524\n" })
        try session.key("q")
        #expect(session.finish() == 0)   // ended from the window: a normal end
        session.expectReleased()
        // The red frame now runs along the frame's own edges (the top edge beside the barcode,
        // which lies against it and is outlined in green).
        let picture = try Picture(path: session.snapshot)
        #expect(picture.isRed(0, 240) && picture.isRed(639, 240) && picture.isRed(100, 0) && picture.isRed(320, 479))
        #expect(!picture.isRed(32, 228))
    }

    @Test func aRefusedCodeIsOutlinedInOrange() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        // A 979 ISBN (refused without --accept 979) across the band of a 640x480 frame.
        let session = try Session(["FRAMES": testImages + "/rejected/isbn979.png", "SIZES": "640x480"],
                                  arguments: ["--size", "640x480", "--continuous"], display: xvfb.display)
        #expect(session.wait { session.stderr.contains("refused, prefix:") })
        try session.key("q")
        #expect(session.finish() == 4)   // ended from the window, no ISBN printed
        #expect(session.stdout == "")
        let picture = try Picture(path: session.snapshot)
        var orange = 0, green = 0
        for y in 0..<480 { for x in 0..<640 {
            let p = picture.pixel(x, y)
            if p.r > 230 && (140...180).contains(p.g) && p.b < 40 { orange += 1 }
            if picture.isGreen(x, y) { green += 1 }
        } }
        #expect(orange > 400)   // the outline (3 px wide) and its label
        #expect(green == 0)
    }

    @Test func spacePausesAndResumesTheScanning() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let display = xvfb.display
        // The book comes after 90 blank frames (3 s at 30 fps): paused before, it is not read.
        // It stays 9 s (three images of 90 frames), so resuming late still finds it.
        let session = try Session(["FRAMES": "blank:\(Self.inside):\(Self.inside):\(Self.inside)", "FRAMES_PER_IMAGE": "90",
                                   "LOOP": "0", "SIZES": "640x480"],
                                  arguments: ["--size", "640x480", "--continuous"], display: display)
        #expect(session.wait { session.events.contains("streamon") })
        try session.key("space")
        #expect(session.wait { session.stderr.contains("camera: paused (space resumes)\n") })
        usleep(4_000_000)   // the book is in view from 3 s on
        #expect(session.stdout == "")
        try session.key("space")
        #expect(session.wait { session.stdout == "9780345391803\n" })
        #expect(session.stderr.contains("camera: resumed\n"))
        try session.key("q")
        #expect(session.finish() == 0)   // ended from the window: a normal end
        session.expectReleased()
    }

    @Test func closingTheWindowEndsTheSessionNormally() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let display = xvfb.display
        let xclose = try Self.xclose.get()
        let session = try Session(["FRAMES": "blank", "SIZES": "640x480"],
                                  arguments: ["--size", "640x480", "--continuous"], display: display)
        #expect(session.wait { session.events.contains("streamon") })
        let id = try session.window()
        #expect(try Self.tool(xclose, [id], environment: ["DISPLAY": display]) == 0)
        #expect(session.finish() == 4)   // ended from the window, no ISBN printed
        session.expectReleased()
        #expect(session.stderr.contains("camera: 0 different ISBNs, 0 duplicates"))
        #expect(session.stderr.hasSuffix("camera: stopped from the preview window; camera released\n"))
    }

    /// q ends the session normally (above); Ctrl-C in the terminal is still an interruption.
    @Test func sigintWithThePreviewIsAnInterruption() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let session = try Session(["FRAMES": Self.inside, "SIZES": "640x480"],
                                  arguments: ["--size", "640x480", "--continuous"], display: xvfb.display)
        #expect(session.wait { session.stdout == "9780345391803\n" })
        kill(session.process.processIdentifier, SIGINT)
        #expect(session.finish() == 130)
        session.expectReleased()
        #expect(session.stderr.hasSuffix("camera: interrupted by SIGINT; camera released\n"))
    }

    @Test func withoutADisplayTheCameraIsNotOpened() throws {
        let session = try Session(["FRAMES": "blank"], arguments: [], display: nil)
        #expect(session.finish() == 1)
        #expect(session.stderr == "Error: --preview needs a display (set DISPLAY for X11 or WAYLAND_DISPLAY for Wayland): neither DISPLAY nor WAYLAND_DISPLAY is set\n")
        #expect(session.stdout == "")
        #expect(!session.events.contains { $0.hasPrefix("open") })
    }
}
