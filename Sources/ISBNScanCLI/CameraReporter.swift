import Capture
import Catalog
import ISBN
import LiveScan
import Records
import Scanning
#if canImport(Glibc)
import Glibc
#endif

/// What `isbnscan camera` makes of a session's events: results on stdout (text or JSON
/// Lines), status lines, warnings and the summary on stderr, the catalogue (`--db`).
///
/// ``handle(_:)`` runs on the session's thread; ``finish(_:)`` after the session ended.
final class CameraReporter {
    let settings: CameraCommand.Settings
    let stdout: TextSink
    let stderr: TextSink
    /// stderr is a terminal: show a live frames-per-second line.
    let live: Bool
    /// Hyphenation and accepted prefixes for the records printed.
    let recordOptions: RecordOptions
    /// `--db`: where printed ISBNs are recorded (`nil` after a catalogue error).
    var catalog: Catalog?

    /// One ISBN printed, and where it was recorded.
    struct Printed {
        var isbn13: String
        var frame: Int
        var time: String
        var recorded: Bool
    }
    private(set) var printed: [Printed] = []
    /// ISBNs printed again (a later visit of a book already printed in this session).
    private(set) var duplicates = 0
    var badFrames = 0
    var statusShown = false
    private var lastStatus = 0.0, framesAtLastStatus = 0

    init(settings: CameraCommand.Settings, stdout: TextSink, stderr: TextSink, catalog: Catalog? = nil) {
        self.catalog = catalog
        self.settings = settings
        self.stdout = stdout
        self.stderr = stderr
        self.recordOptions = RecordOptions(ranges: RangesCommand.load(stderr: stderr).ranges, prefixes: settings.prefixes)
        self.live = !settings.quiet && isatty(2) == 1 && (stderr as? FileDescriptorSink)?.fd == 2
    }

    /// ISBNs printed.
    var count: Int { printed.count }

    /// Prints what `event` calls for. Returns `false` when the session should end (stdout
    /// cannot be written).
    func handle(_ event: LiveScanEvent) -> Bool {
        let s = settings
        switch event {
        case .started(let info, let format, let rect):
            status("\(s.device): '\(info.card)' (driver \(info.driver))\(info.canStream ? "" : ", read() I/O")")
            status("\(format), scanning \(rect.width)x\(rect.height) pixels at (\(rect.x),\(rect.y)) "
                   + "(region \(s.region)); \(s.continuous ? "--continuous, Ctrl-C stops" : "stops at the first ISBN")")
            status(Self.whereToHold(s.region))
        case .frame(let info):
            if live && info.time - lastStatus >= 1 {
                let rate = Double(info.number - framesAtLastStatus) / (info.time - lastStatus)
                stderr.write("\r\u{1B}[Kcamera: \(String(format1: rate)) frames/s, \(count) ISBN\(count == 1 ? "" : "s")")
                statusShown = true
                lastStatus = info.time
                framesAtLastStatus = info.number
            }
        case .read:
            break
        case .badFrame(let frame, let error):
            badFrames += 1
            if badFrames == 1 && !s.quiet { warn("frame \(frame): \(error.description)") }
        case .refused(let frame, let code):
            if !s.quiet {
                warn("frame \(frame): \(code.symbol.symbology.rawValue) \(code.symbol.data) refused, \(code.verdict.rejection!)")
            }
        case .confirmed(let frame, _, let width, let height, let report, let codes):
            confirmed(codes, report: report, frame: frame, width: width, height: height)
        case .deviceError(let error):
            endStatusLine()
            stderr.write("Error: \(error.description)\n")
        }
        return !stdout.writeFailed
    }

    /// The status line that says where the region the user cannot see lies.
    static func whereToHold(_ region: RegionOfInterest) -> String {
        if region.isFull { return "hold the book's barcode anywhere in the picture" }
        func percent(_ x: Double) -> String { "\(Int((x * 100).rounded()))%" }
        let place = region == .band ? "the band across the middle of the picture" : "the region of interest"
        return "only \(place) is read: hold the barcode there, bars upright (\(percent(region.x))...\(percent(region.x + region.width)) "
            + "of the width, \(percent(region.y))...\(percent(region.y + region.height)) of the height); "
            + "--roi 0,0,1,1 reads the whole picture"
    }

    /// Records, prints and counts the ISBNs confirmed now.
    private func confirmed(_ codes: [ReadCode], report: ScanReport, frame: Int, width: Int, height: Int) {
        let time = Timestamp.now()
        if statusShown { stderr.write("\r\u{1B}[K") }
        let event = FrameEventRecord(device: settings.device, frame: frame, time: time, width: width, height: height,
                                     report: report, printed: codes, options: recordOptions)
        // Recorded (and committed) before it is printed: nothing printed is ever missing from the catalogue.
        var already: [String] = []
        var recorded = false
        if let catalog {
            do {
                for isbn in event.isbns {
                    guard let seen = try catalog.firstSighting(of: isbn.isbn13) else { continue }
                    let source = seen.source.split(separator: "/").last.map(String.init) ?? seen.source
                    already.append("\(isbn.isbn13): already scanned \(seen.seenAt.prefix(10)) from \(escaped(source, json: false))")
                }
                try catalog.record(event, at: time)
                recorded = true
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
        for isbn in event.isbns {
            if printed.contains(where: { $0.isbn13 == isbn.isbn13 }) { duplicates += 1 }
            printed.append(Printed(isbn13: isbn.isbn13, frame: frame, time: time, recorded: recorded))
        }
    }

    /// The summary on stderr and the exit status of the session that ended with `summary`.
    func finish(_ summary: CameraSession.Summary) -> ExitStatus {
        endStatusLine()
        if case .failed = summary.end { return .inputError }
        let s = settings
        if !s.quiet {
            let frames = summary.frames, elapsed = summary.seconds
            var line = "camera: \(frames) frame\(frames == 1 ? "" : "s") in \(String(format2: elapsed)) s"
            if frames > 0 && elapsed > 0 {
                line += " (\(String(format1: Double(frames) / elapsed)) frames/s, \(String(format2: summary.cpuSeconds * 1000 / Double(frames))) ms CPU per frame"
                line += ")"
            }
            line += ", \(count) ISBN\(count == 1 ? "" : "s") printed"
            if badFrames > 0 { line += ", \(badFrames) unusable frame\(badFrames == 1 ? "" : "s")" }
            if summary.end == .timeout, let timeout = s.timeout { line += "; --timeout of \(String(format2: timeout)) s reached" }
            stderr.write(line + "\n")
            if s.continuous {
                let different = Set(printed.map(\.isbn13)).count
                let books = "camera: \(different) different ISBN\(different == 1 ? "" : "s"), \(duplicates) duplicate\(duplicates == 1 ? "" : "s") (printed again after leaving the view)"
                stderr.write(books + "\n")
            }
        }
        if case .stopped(let signal) = summary.end {
            if !s.quiet {
                let why = signal == 0 ? "stopped" : "interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"
                stderr.write("camera: \(why); camera released\n")
            }
            return .interrupted
        }
        return count > 0 ? .found : .nothingFound
    }

    func status(_ line: String) {
        if !settings.quiet { endStatusLine(); stderr.write("camera: \(line)\n") }
    }

    func warn(_ line: String) {
        endStatusLine()
        stderr.write("Warning: \(line)\n")
    }

    func endStatusLine() {
        if statusShown { stderr.write("\n"); statusShown = false }
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
