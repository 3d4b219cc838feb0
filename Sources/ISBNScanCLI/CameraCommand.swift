// SPDX-License-Identifier: Apache-2.0
import Imaging
import Records
import Capture
import LiveScan
import Lookup
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
        usage: "isbnscan camera [--device path] [--size WxH] [--fps n] [--format f] [--roi x,y,w,h] [--once | --continuous] [--preview] [--timeout s] [--json] [--addons] [--beep] [options]",
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
                width and height, origin top-left, or percentages with '%'
                (not both in one region). Default: 0.05,0.4,0.9,0.15
                (5%,40%,90%,15%), the iOS reader's band across the middle.
                0,0,1,1 scans it all.
                """),
            OptionSpec("roi-avfoundation", value: "x,y,w,h", help: "The same region as AVFoundation's rectOfInterest\n(0.4,0.05,0.15,0.9 or 40%,5%,15%,90% is the band); see\n'isbnscan scan --help'."),
            OptionSpec("once", help: "Stop at the first ISBN, print it and exit 0 (the default)."),
            OptionSpec("continuous", help: "Keep scanning and print every ISBN once per visit (for\ncataloguing a shelf). Ctrl-C stops (exit 130) after a summary:\nframes, ISBNs, duplicates."),
            OptionSpec("preview", help: """
                Show the camera picture in a window (SDL2; X11 or Wayland) with
                the region of interest as a red frame, each ISBN read outlined
                in green, refused codes in orange with the reason, and a status
                strip. Keys: q or Esc quit (like Ctrl-C), space pause/resume,
                u undo the last ISBN (and remove it from --db), r switch the
                region between the band and the whole frame. Closing the
                window quits like q. Without a display: exit 1.
                """),
            OptionSpec("preview-snapshot", value: "file", help: "With --preview: write the window's last picture to file\n(binary PPM) when the session ends (tests, screenshots)."),
            OptionSpec("timeout", value: "seconds", help: "Give up after this long; exit 4 if no ISBN was printed\n(default: no limit)."),
            OptionSpec("confirm-frames", value: "n", help: "Frames a code must be read in, within one second,\nbefore it is printed, 1...100 (default: 2), and 3 times as\nmany as any rival reading at its place: rules out misreads."),
            OptionSpec("repeat-after", value: "seconds", help: "--continuous: print the same ISBN again only after it\nhas been out of view this long (default: 3)."),
            OptionSpec("frame-timeout", value: "seconds", help: "Fail (exit 1) when the camera sends no frame for this\nlong (default: 5)."),
            OptionSpec("max-frames", value: "n", help: "Stop after n frames (tests, benchmarks). Default: no limit."),
            OptionSpec("effort", value: "level", help: "Decoding per frame: fast (one zbar scan per frame, and\nthe recovery of blurred barcodes in the spare time; the\ndefault), normal or thorough (every frame searched whole\nas in 'isbnscan scan', much slower per frame)."),
            OptionSpec("line-step", value: "n", help: "With --effort fast: scan every n-th line of the region per\nframe, the next frame the lines after them, so n frames scan\nthem all; a frame whose lines read anything is scanned whole.\nA band is read along rows only. 1...16 (default: 2); 1 scans\nevery row and column of every frame."),
            OptionSpec("addons", help: "Also read EAN-5/EAN-2 add-ons and print them after the ISBN."),
ArgumentParser.acceptOption,
            OptionSpec("json", help: "One JSON object per printed result (JSON Lines), with the\nkeys of 'scan --json', \"device\", \"frame\" and \"time\" instead\nof \"file\"."),
            OptionSpec("db", value: "file", help: """
                Record every ISBN printed in this catalogue (SQLite, created if
                missing; see 'isbnscan catalog'), before printing it. A book
                already in it gets a warning 'already scanned <date> from
                <file>' (and two bells with --beep).
                """),
        ] + LookupCommand.backgroundOptions + [
            OptionSpec("beep", help: "Ring the terminal bell (on stderr) for every ISBN printed."),
            OptionSpec("quiet", short: "q", help: "No status lines, warnings or summary on stderr\n(errors still appear)."),
        ],
        discussion: """
        Frames stream from the camera; only the region of interest is copied out
        and scanned with zbar; a code is printed when it is a valid 978 ISBN-13
        read in --confirm-frames frames.

        WHERE TO HOLD THE BOOK:
          Only the region is read: by default the band across the middle of the
          picture (5...95% of its width, 40...55% of its height). Hold the barcode
          across it, bars upright; the status line says so. --preview shows the
          band; --roi 0,0,1,1 reads the whole picture (slower per frame).

        OUTPUT:
          stdout: one ISBN-13 per line ('<isbn13> <add-on>' with --addons), or
          with --json: {"device", "frame" (frames received, from 1), "time" (when
          it was confirmed, ISO 8601 UTC with milliseconds), "width", "height",
          "symbols", "isbns" (the ISBNs printed now), "rejected", "error"}.
          Polygons are in pixels of the whole frame, origin top-left.
          stderr: the device, format and size chosen, where to hold the book,
          frames per second while scanning (when stderr is a terminal), warnings,
          ISBNs undone (u in the preview), and a summary (also after Ctrl-C):
          frames, ISBNs printed, and with --continuous the different ISBNs and
          the duplicates (printed again after leaving the view).

        EXIT STATUS:
          0    an ISBN was printed (q, Esc or closing the --preview window end
               a session normally, as --timeout does)
          1    the camera could not be used (no such device, permission denied,
               busy, not a capture device, format not supported, unplugged,
               no frame for --frame-timeout seconds), or --preview found no
               display to open its window on, or no SDL2 (libsdl2-2.0-0)
          2    usage error
          3    the ISBNs could not be written to stdout (full disk; a closed
               pipe ends the run quietly)
          4    no ISBN before --timeout, --max-frames or the end from the
               --preview window
          130  interrupted by Ctrl-C (SIGINT) or SIGTERM, after releasing the camera

        EXAMPLES:
          isbnscan camera
          isbnscan camera --continuous --beep >> shelf.txt
          isbnscan camera --continuous --preview --db shelf.db
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
        var lineStep = FrameScanner.defaultLineStep
        var addOns = false
        var json = false
        var beep = false
        var quiet = false
        /// `--accept 979`.
        var prefixes = ISBNPrefixes.only978
        /// `--db`: the catalogue file.
        var db: String?
        /// `--preview`: show the window.
        var preview = false
        /// `--preview-snapshot`: where the window's last picture goes.
        var previewSnapshot: String?
        /// `--lookup`: how books are looked up, or `nil`.
        var lookup: LookupOptions?

        /// The camera session's part of the settings.
        var options: LiveScanOptions {
            var o = LiveScanOptions()
            o.device = device
            o.width = width
            o.height = height
            o.fps = fps
            o.format = format
            o.region = region
            o.continuous = continuous
            o.timeout = timeout
            o.confirmFrames = confirmFrames
            o.repeatAfter = repeatAfter
            o.frameTimeout = frameTimeout
            o.maxFrames = maxFrames
            o.effort = effort
            o.lineStep = lineStep
            o.addOns = addOns
            o.prefixes = prefixes
            return o
        }
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
                throw Suggestion.notOneOf(name, option: "--format", choices: ["auto"] + PixelFormat.preferred.map(\.description))
            }
            s.format = format
        }
        let shared = try SharedOptions(parsed, csv: false)
        if let region = shared.region { s.region = region }
        s.addOns = shared.addOns
        s.prefixes = shared.prefixes
        s.db = shared.db
        s.json = shared.json
        s.lookup = shared.lookup
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
        if let effort = try ArgumentParser.effort(from: parsed) { s.effort = effort }
        if let text = parsed.value("line-step") {
            s.lineStep = try ArgumentParser.integer(text, option: "--line-step", in: 1...16)
        }
        s.preview = parsed.flag("preview")
        if let file = parsed.value("preview-snapshot") {
            guard s.preview else { throw UsageError("--preview-snapshot needs --preview") }
            guard !file.isEmpty else { throw UsageError("--preview-snapshot needs a file name") }
            s.previewSnapshot = file
        }
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
        var created = false
        if let db = settings.db {
            created = access(db, F_OK) != 0
            do { catalog = try Catalog(path: db, access: .write) { stderr.write("Note: \($0)\n") } } catch {
                stderr.write("Error: \(error)\n")
                return .inputError
            }
        }
        let reporter = CameraReporter(settings: settings, stdout: stdout, stderr: stderr, catalog: catalog)
        let status: ExitStatus
        if settings.preview {
            status = PreviewSession.run(reporter: reporter)
        } else {
            let session = CameraSession(options: settings.options)
            let summary = session.run(stopRequest: { StopSignal.received }) { reporter.handle($0) }
            status = reporter.finish(summary)
        }
        // A catalogue this run created and never used (the device could not be opened) goes again.
        if created, status == .inputError, let db = settings.db, let stats = try? catalog?.statistics(),
           stats.sightings == 0, stats.files.isEmpty {
            reporter.catalogue?.close()
            catalog = nil
            for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) }
        }
        return status
    }
}
