import Records
import Capture
import Catalog
import ISBN
import Scanning
#if canImport(Glibc)
import Glibc
#endif

/// `isbnscan camera`: reads book barcodes from a V4L2 webcam.
enum CameraCommand {
    static let spec = CommandSpec(
        name: "camera",
        abstract: "Hold a book up to a webcam (V4L2) and print its ISBN.",
        usage: "isbnscan camera [--device path] [--size WxH] [--fps n] [--format f] [--roi x,y,w,h] [--once | --continuous] [--timeout s] [--json] [--addons] [--beep] [options]",
        arguments: [],
        options: [
            OptionSpec("device", value: "path", help: "The V4L2 capture device (default: /dev/video0).\n'isbnscan devices' lists them."),
            OptionSpec("size", value: "WxH", help: "Frame size to ask for (default: 1280x720). The driver\npicks the nearest size it has; the status line says which."),
            OptionSpec("fps", value: "n", help: "Frame rate to ask for, 1...240 (default: 30)."),
            OptionSpec("format", value: "f", help: """
                Pixel format: auto (the default: GREY, YUYV, NV12, YU12, then
                MJPG, whichever the camera offers first), YUYV, MJPG, GREY,
                NV12 or YU12.
                """),
            OptionSpec("roi", value: "x,y,w,h", help: """
                Scan only this region of each frame: fractions 0...1 of its
                width and height, origin top-left. Default: 0.05,0.4,0.9,0.15,
                the iOS reader's band across the middle. 0,0,1,1 scans it all.
                """),
            OptionSpec("roi-avfoundation", value: "x,y,w,h", help: "The same region as AVFoundation's rectOfInterest\n(0.4,0.05,0.15,0.9 is the band); see 'isbnscan scan --help'."),
            OptionSpec("once", help: "Stop at the first ISBN, print it and exit 0 (the default)."),
            OptionSpec("continuous", help: "Keep scanning and print every ISBN once per visit (for\ncataloguing a shelf). Ctrl-C stops (exit 130)."),
            OptionSpec("timeout", value: "seconds", help: "Give up after this long; exit 4 if no ISBN was printed\n(default: no limit)."),
            OptionSpec("confirm-frames", value: "n", help: "Frames a code must be read in, within one second,\nbefore it is printed, 1...100 (default: 2), and 3 times as\nmany as any rival reading at its place: rules out misreads."),
            OptionSpec("repeat-after", value: "seconds", help: "--continuous: print the same ISBN again only after it\nhas been out of view this long (default: 3)."),
            OptionSpec("frame-timeout", value: "seconds", help: "Fail (exit 1) when the camera sends no frame for this\nlong (default: 5)."),
            OptionSpec("max-frames", value: "n", help: "Stop after n frames (tests, benchmarks). Default: no limit."),
            OptionSpec("effort", value: "level", help: "Decoding per frame: fast (one zbar scan; the default,\nthe next frame is the next try), normal or thorough (as\nin 'isbnscan scan', much slower per frame)."),
            OptionSpec("addons", help: "Also read EAN-5/EAN-2 add-ons and print them after the ISBN."),
ArgumentParser.acceptOption,
            OptionSpec("json", help: "One JSON object per printed result (JSON Lines), with the\nkeys of 'scan --json', \"device\" and \"frame\" instead of \"file\"."),
            OptionSpec("db", value: "file", help: """
                Record every ISBN printed in this catalogue (SQLite, created if
                missing; see 'isbnscan catalog'), before printing it. A book
                already in it gets a warning 'already scanned <date> from
                <file>' (and two bells with --beep).
                """),
            OptionSpec("beep", help: "Ring the terminal bell (on stderr) for every ISBN printed."),
            OptionSpec("quiet", short: "q", help: "No status lines, warnings or summary on stderr\n(errors still appear)."),
        ],
        discussion: """
        Frames stream from the camera; only the region of interest is copied out
        and scanned with zbar; a code is printed when it is a valid 978 ISBN-13
        read in --confirm-frames frames.

        OUTPUT:
          stdout: one ISBN-13 per line ('<isbn13> <add-on>' with --addons), or
          with --json: {"device", "frame" (frames received, from 1), "width",
          "height", "symbols", "isbns" (the ISBNs printed now), "rejected",
          "error"}. Polygons are in pixels of the whole frame.
          stderr: the device, format and size chosen, frames per second while
          scanning (when stderr is a terminal), warnings, and a summary.

        EXIT STATUS:
          0    an ISBN was printed
          1    the camera could not be used (no such device, permission denied,
               busy, not a capture device, format not supported, unplugged,
               no frame for --frame-timeout seconds)
          2    usage error
          3    the ISBNs could not be written to stdout (full disk; a closed
               pipe ends the run quietly)
          4    no ISBN before --timeout or --max-frames
          130  interrupted by Ctrl-C (SIGINT) or SIGTERM, after releasing the camera

        EXAMPLES:
          isbnscan camera
          isbnscan camera --continuous --beep >> shelf.txt
          isbnscan camera --device /dev/video2 --format MJPG --size 1920x1080 --json
        """)

    struct Settings {
        var device = "/dev/video0"
        var width = 1280
        var height = 720
        var fps = 30
        var format: PixelFormat?
        var region = RegionOfInterest.band
        var continuous = false
        var timeout: Double?
        var confirmFrames = 2
        var repeatAfter = 3.0
        var frameTimeout = 5.0
        var maxFrames: Int?
        var effort = Effort.fast
        var addOns = false
        var json = false
        var beep = false
        var quiet = false
        /// `--accept 979`.
        var prefixes = ISBNPrefixes.only978
        /// `--db`: the catalogue file.
        var db: String?
    }

    static func settings(from parsed: ParsedArguments) throws(UsageError) -> Settings {
        var s = Settings()
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        if let device = parsed.value("device") {
            guard !device.isEmpty else { throw UsageError("--device is empty") }
            s.device = device
        }
        if let size = parsed.value("size") {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
                throw UsageError("--size '\(size)' is not WIDTHxHEIGHT in pixels (e.g. 1280x720)")
            }
            s.width = w
            s.height = h
        }
        if let fps = parsed.value("fps") { s.fps = try ArgumentParser.integer(fps, option: "--fps", in: 1...240) }
        if let name = parsed.value("format"), name.lowercased() != "auto" {
            guard let format = PixelFormat(name: name) else {
                throw UsageError("--format '\(name)' is not one of auto, YUYV, MJPG, GREY, NV12, YU12")
            }
            s.format = format
        }
        if let region = try ScanCommand.region(from: parsed) { s.region = region }
        if parsed.flag("once") && parsed.flag("continuous") { throw UsageError("give either --once or --continuous, not both") }
        s.continuous = parsed.flag("continuous")
        if let text = parsed.value("timeout") { s.timeout = try seconds(text, option: "--timeout", allowZero: false) }
        if let text = parsed.value("repeat-after") { s.repeatAfter = try seconds(text, option: "--repeat-after", allowZero: true) }
        if let text = parsed.value("frame-timeout") { s.frameTimeout = try seconds(text, option: "--frame-timeout", allowZero: false) }
        if let text = parsed.value("confirm-frames") {
            s.confirmFrames = try ArgumentParser.integer(text, option: "--confirm-frames", in: 1...100)
        }
        if let text = parsed.value("max-frames") {
            s.maxFrames = try ArgumentParser.integer(text, option: "--max-frames", in: 1...1_000_000_000)
        }
        if let text = parsed.value("effort") {
            guard let effort = Effort(rawValue: text) else { throw UsageError("--effort '\(text)' is not one of fast, normal, thorough") }
            s.effort = effort
        }
        s.addOns = parsed.flag("addons")
        s.prefixes = try ArgumentParser.prefixes(from: parsed)
        if let db = parsed.value("db") {
            guard !db.isEmpty else { throw UsageError("--db needs a file name") }
            s.db = db
        }
        s.json = parsed.flag("json")
        s.beep = parsed.flag("beep")
        s.quiet = parsed.flag("quiet")
        return s
    }

    /// A duration in seconds: a finite number ≥ 0 (> 0 unless `allowZero`), at most a day.
    static func seconds(_ text: String, option: String, allowZero: Bool) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, value >= 0, value <= 86_400 else {
            throw UsageError("\(option) '\(text)' is not a number of seconds (0...86400)")
        }
        guard allowZero || value > 0 else { throw UsageError("\(option) must be more than 0 seconds") }
        return value
    }

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink) throws(UsageError) -> ExitStatus {
        let settings = try settings(from: parsed)
        StopSignal.install()
        var catalog: Catalog?
        if let db = settings.db {
            do { catalog = try Catalog(path: db) } catch {
                stderr.write("Error: \(error)\n")
                return .inputError
            }
        }
        var session = CameraSession(settings: settings, stdout: stdout, stderr: stderr, catalog: catalog)
        return session.run()
    }
}

/// One run of `isbnscan camera`: opens the device, streams, scans, prints, releases.
struct CameraSession {
    let settings: CameraCommand.Settings
    let stdout: TextSink
    let stderr: TextSink
    /// stderr is a terminal: show a live frames-per-second line.
    let live: Bool
    var frames = 0
    var reported = 0
    var badFrames = 0
    var statusShown = false
    /// Hyphenation and accepted prefixes for the records printed.
    let recordOptions: RecordOptions
    /// `--db`: where printed ISBNs are recorded (`nil` after a catalogue error).
    var catalog: Catalog?

    init(settings: CameraCommand.Settings, stdout: TextSink, stderr: TextSink, catalog: Catalog? = nil) {
        self.catalog = catalog
        self.settings = settings
        self.stdout = stdout
        self.stderr = stderr
        self.recordOptions = RecordOptions(ranges: RangesCommand.load(stderr: stderr).ranges, prefixes: settings.prefixes)
        self.live = !settings.quiet && isatty(2) == 1 && (stderr as? FileDescriptorSink)?.fd == 2
    }

    mutating func run() -> ExitStatus {
        let s = settings
        let device: CaptureDevice
        do {
            device = try CaptureDevice(path: s.device)
        } catch {
            return failed(error)
        }
        defer { device.close() }
        let format: StreamFormat
        do {
            format = try device.configure(format: s.format, width: s.width, height: s.height, fps: s.fps)
            try device.start()
        } catch {
            return failed(error)
        }
        let rect = s.region.pixelRect(imageWidth: format.width, imageHeight: format.height)
        status("\(s.device): '\(device.info.card)' (driver \(device.info.driver))\(device.info.canStream ? "" : ", read() I/O")")
        status("\(format), scanning \(rect.width)x\(rect.height) pixels at (\(rect.x),\(rect.y)) "
               + "(region \(s.region)); \(s.continuous ? "--continuous, Ctrl-C stops" : "stops at the first ISBN")")

        let scanner = FrameScanner(region: s.region, scannerOptions: ScannerOptions(addOns: s.addOns), effort: s.effort)
        var confirmer = FrameConfirmer(requiredFrames: s.confirmFrames, repeatAfter: s.repeatAfter)
        var refusals = FrameConfirmer(requiredFrames: s.confirmFrames, repeatAfter: .infinity)
        let start = monotonicSeconds()
        let cpuStart = cpuSeconds()
        let deadline = s.timeout.map { start + $0 }
        var lastStatus = start, framesAtLastStatus = 0
        var outcome: ExitStatus?

        loop: while outcome == nil {
            if let max = s.maxFrames, frames >= max { break }
            if stdout.writeFailed { break }  // a closed pipe or full disk: main exits 3
            var wait = s.frameTimeout
            if let deadline {
                let left = deadline - monotonicSeconds()
                if left <= 0 { break }
                wait = min(wait, left)
            }
            let pixels: Result<RegionPixels, CaptureError>?
            do {
                pixels = try device.withNextFrame(timeout: wait) { frame in
                    Result { () throws(CaptureError) -> RegionPixels in
                        try FrameDecoder.luminance(of: frame, region: s.region, device: s.device)
                    }
                }
            } catch {
                if case .interrupted(_, let signal) = error {
                    device.close()
                    endStatusLine()
                    if !s.quiet { stderr.write("camera: interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); camera released\n") }
                    return .interrupted
                }
                return failed(error)
            }
            let now = monotonicSeconds()
            guard let pixels else {
                if let deadline, now >= deadline { break loop }
                return failed(.timeout(device: s.device, seconds: s.frameTimeout))
            }
            frames += 1
            switch pixels {
            case .failure(let error):
                badFrames += 1
                if badFrames == 1 && !s.quiet { warn("frame \(frames): \(error.description)") }
            case .success(let region):
                let report = scanner.scan(region)
                handle(report, frame: frames, width: region.frameWidth, height: region.frameHeight, at: now,
                       confirmer: &confirmer, refusals: &refusals)
                if reported > 0 && !s.continuous { outcome = .found }
            }
            if live && now - lastStatus >= 1 {
                let rate = Double(frames - framesAtLastStatus) / (now - lastStatus)
                stderr.write("\r\u{1B}[Kcamera: \(String(format1: rate)) frames/s, \(reported) ISBN\(reported == 1 ? "" : "s")")
                statusShown = true
                lastStatus = now
                framesAtLastStatus = frames
            }
        }
        let elapsed = monotonicSeconds() - start
        let cpu = cpuSeconds() - cpuStart
        device.close()
        endStatusLine()
        if !s.quiet {
            var line = "camera: \(frames) frame\(frames == 1 ? "" : "s") in \(String(format2: elapsed)) s"
            if frames > 0 && elapsed > 0 {
                line += " (\(String(format1: Double(frames) / elapsed)) frames/s, \(String(format2: cpu * 1000 / Double(frames))) ms CPU per frame)"
            }
            line += ", \(reported) ISBN\(reported == 1 ? "" : "s") printed"
            if badFrames > 0 { line += ", \(badFrames) unusable frame\(badFrames == 1 ? "" : "s")" }
            if outcome == nil, let timeout = s.timeout, elapsed >= timeout {
                line += "; --timeout of \(String(format2: timeout)) s reached"
            }
            stderr.write(line + "\n")
        }
        return outcome ?? (reported > 0 ? .found : .nothingFound)
    }

    /// Confirms the frame's codes and prints those due now.
    mutating func handle(_ report: ScanReport, frame: Int, width: Int, height: Int, at time: Double,
                         confirmer: inout FrameConfirmer, refusals: inout FrameConfirmer) {
        let report = report.judged(accepting: settings.prefixes)
        let accepted = report.accepted
        // Every reading of the frame goes to the confirmer (a misread is a rival of the code it
        // misreads); only accepted ISBNs can be printed.
        // Readings the frame's own arbiter already refused as misreads of another code are no
        // rivals of it.
        let sightings = report.codes.filter { $0.verdict.rejection?.reason != .misread }.map(\.symbol)
        let due = Set(confirmer.observe(sightings, reportable: Set(accepted.map(\.symbol.data)), at: time))
        let refusedDue = Set(refusals.observe(report.rejected.map(\.symbol.data), at: time))
        if !settings.quiet {
            for code in report.rejected where refusedDue.contains(code.symbol.data) {
                warn("frame \(frame): \(code.symbol.symbology.rawValue) \(code.symbol.data) refused, \(code.verdict.rejection!)")
            }
        }
        let printed = accepted.filter { due.contains($0.verdict.isbn!.isbn13) }
        guard !printed.isEmpty else { return }
        let toPrint = settings.continuous ? printed : [printed[0]]
        if statusShown { stderr.write("\r\u{1B}[K") }
        let event = FrameEventRecord(device: settings.device, frame: frame, width: width, height: height,
                                     report: report, printed: toPrint, options: recordOptions)
        // Recorded (and committed) before it is printed: nothing printed is ever missing from the catalogue.
        var already: [String] = []
        if let catalog {
            do {
                for isbn in event.isbns {
                    guard let seen = try catalog.firstSighting(of: isbn.isbn13) else { continue }
                    let source = seen.source.split(separator: "/").last.map(String.init) ?? seen.source
                    already.append("\(isbn.isbn13): already scanned \(seen.seenAt.prefix(10)) from \(escaped(source, json: false))")
                }
                try catalog.record(event)
            } catch {
                endStatusLine()
                stderr.write("Error: \(error)\n")
                self.catalog = nil
            }
        }
        stdout.write(settings.json ? JSONLinesFormatter().format(event)
                                   : TextFormatter(options: .init(addOns: settings.addOns)).format(event))
        if !settings.quiet { for line in already { warn(line) } }
        if settings.beep { stderr.write(already.isEmpty ? "\u{7}" : "\u{7}\u{7}") }
        reported += toPrint.count
    }

    func status(_ line: String) {
        if !settings.quiet { stderr.write("camera: \(line)\n") }
    }

    mutating func warn(_ line: String) {
        endStatusLine()
        stderr.write("Warning: \(line)\n")
    }

    mutating func endStatusLine() {
        if statusShown { stderr.write("\n"); statusShown = false }
    }

    mutating func failed(_ error: CaptureError) -> ExitStatus {
        endStatusLine()
        stderr.write("Error: \(error.description)\n")
        return .inputError
    }

    /// User + system CPU time of this process, in seconds (getrusage).
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

extension String {
    /// `x` with one decimal.
    init(format1 x: Double) {
        let tenths = Int((x * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// `x` with two decimals.
    init(format2 x: Double) {
        let hundredths = Int((x * 100).rounded())
        let fraction = abs(hundredths % 100)
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
