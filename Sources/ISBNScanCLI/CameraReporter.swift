// SPDX-License-Identifier: Apache-2.0
import Imaging
import Capture
import Catalog
import ISBN
import LiveScan
import Preview
import Records
import Scanning
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What `isbnscan camera` makes of a session's events: results on stdout (text or JSON
/// Lines), status lines and warnings on stderr, and the preview's state (`--preview`); the
/// counts and summary are ``CameraTally``'s, the catalogue ``CameraCatalogue``'s, the
/// lookups ``BackgroundLookup``'s.
///
/// ``handle(_:)`` runs on the session's thread; ``requestUndo()`` may be called from any
/// thread (the preview's); ``finish(_:)`` after the session ended.
final class CameraReporter: @unchecked Sendable {
    // @unchecked: the mutable state below is touched only by the session's thread while it
    // runs, and by the thread that joined it afterwards; `undoRequests` and `preview` are
    // Mutex-protected.
    let settings: CameraCommand.Settings
    let stdout: TextSink
    let stderr: TextSink
    /// stderr is a terminal: show a live frames-per-second line.
    let live: Bool
    /// Hyphenation and accepted prefixes for the records printed.
    let recordOptions: RecordOptions
    /// `--db`: where printed ISBNs are recorded.
    let catalogue: CameraCatalogue?
    /// A confirmed ISBN could not be recorded: the session stops, exit 1.
    private var catalogFailed: Bool { catalogue?.failed == true }
    private(set) var tally = CameraTally()
    /// The session is paused (frames not scanned).
    private var paused = false
    var statusShown = false
    private var lastStatus = 0.0, framesAtLastStatus = 0
    private let undoRequests = Mutex(0)
    /// The last Japanese book code read (the second row) and its frame: given to a 978-4 ISBN
    /// confirmed soon after without one, as the two rows may be read in different frames.
    private var lastJapanese: (code: JapaneseBookCode, frame: Int)?
    /// The frame of the last ISBN printed.
    private var lastPrintedFrame: Int?
    /// Japanese book codes already explained on stderr.
    private var explained: Set<String> = []
    /// Frames within which a second row and its ISBN are taken as one book (about 1.5 s at 30 frames/s).
    static let pairingFrames = 45
    /// With `--preview`: what the window shows, updated from every event.
    let preview: Mutex<PreviewState>?
    /// `--lookup`: the books looked up on their own thread after they are printed (and recorded).
    let lookup: BackgroundLookup?

    init(settings: CameraCommand.Settings, stdout: TextSink, stderr: TextSink, catalog: Catalog? = nil) {
        self.catalogue = catalog.map { CameraCatalogue($0, device: settings.device) }
        self.settings = settings
        self.stdout = stdout
        self.stderr = stderr
        self.recordOptions = RecordOptions(ranges: RangesCommand.load(stderr: stderr).ranges, prefixes: settings.prefixes)
        self.live = !settings.quiet && isatty(2) == 1 && (stderr as? FileDescriptorSink)?.fd == 2
        self.preview = settings.preview ? Mutex(PreviewState(scanRegion: settings.region)) : nil
        self.lookup = settings.lookup.flatMap { BackgroundLookup(options: $0, catalogPath: settings.db) }
        if settings.lookup != nil && lookup == nil {
            stderr.write("Warning: --lookup: no thread could be started; no book is looked up\n")
        }
    }

    /// ISBNs printed and not undone.
    var count: Int { tally.count }

    /// Asks to undo the last ISBN printed, at the next event (on the session's thread, which
    /// owns the catalogue connection).
    func requestUndo() { undoRequests.withLock { $0 += 1 } }

    /// Prints what `event` calls for. Returns `false` when the session should end (stdout
    /// cannot be written).
    func handle(_ event: LiveScanEvent) -> Bool {
        preview?.withLock { $0.apply(event) }
        if let lookup { deliver(lookup.drain()) }
        let pendingUndo = undoRequests.withLock { n in defer { n = 0 }; return n }
        for _ in 0..<pendingUndo { undoLast() }
        let s = settings
        switch event {
        case .started(let info, let format, let rect):
            status("\(s.device): '\(info.card)' (driver \(info.driver))\(info.canStream ? "" : ", read() I/O")")
            status("\(format), scanning \(rect.width)x\(rect.height) pixels at (\(rect.x),\(rect.y)) "
                   + "(region \(s.region)); \(s.continuous ? "--continuous, Ctrl-C stops" : "stops at the first ISBN")")
            if !s.preview { status(Self.whereToHold(s.region)) }
        case .frame(let info):
            if info.scanned == paused {   // space in the preview window
                paused = !info.scanned
                status(paused ? "paused (space resumes)" : "resumed")
            }
            if live && info.time - lastStatus >= 1 {
                let rate = Double(info.number - framesAtLastStatus) / (info.time - lastStatus)
                stderr.write("\r\u{1B}[Kcamera: \(String(rate, places: 1)) frames/s, \(count) ISBN\(count == 1 ? "" : "s")")
                statusShown = true
                lastStatus = info.time
                framesAtLastStatus = info.number
            }
        case .read(let frame, let report):
            for code in report.codes {
                if let japanese = JapaneseBookCode(ean: code.symbol.data) { lastJapanese = (japanese, frame) }
            }
        case .badFrame(let frame, let error):
            tally.badFrames += 1
            if tally.badFrames == 1 && !s.quiet { warn("frame \(frame): \(error.description)") }
        case .refused(let frame, let code):
            if let japanese = JapaneseBookCode(ean: code.symbol.data) {
                // Not a refused product: the second row of a Japanese book, said once, and only
                // when its ISBN was not printed just before.
                let near = lastPrintedFrame.map { frame - $0 <= Self.pairingFrames } ?? false
                if !s.quiet && !near && explained.insert(japanese.code).inserted {
                    status("frame \(frame): \(japanese.code) is \(japanese.refusalDetail)")
                }
            } else if !s.quiet {
                warn("frame \(frame): \(code.symbol.symbology.rawValue) \(code.symbol.data) refused, \(code.verdict.rejection!)")
            }
        case .confirmed(let frame, _, let width, let height, let report, let codes):
            confirmed(codes, report: report, frame: frame, width: width, height: height)
        case .deviceError(let error):
            endStatusLine()
            stderr.write("Error: \(error.description)\n")
        }
        return !stdout.writeFailed && !catalogFailed
    }

    /// The status line that says where the region the user cannot see lies.
    static func whereToHold(_ region: RegionOfInterest) -> String {
        if region.isFull { return "hold the book's barcode anywhere in the picture" }
        func percent(_ x: Double) -> String { "\(Int((x * 100).rounded()))%" }
        let place = region == .band ? "the band across the middle of the picture" : "the region of interest"
        return "only \(place) is read: hold the barcode there, bars upright (\(percent(region.x))...\(percent(region.x + region.width)) "
            + "of the width, \(percent(region.y))...\(percent(region.y + region.height)) of the height); "
            + "--preview shows it, --roi 0,0,1,1 reads the whole picture"
    }

    /// Records, prints and counts the ISBNs confirmed now.
    private func confirmed(_ codes: [ReadCode], report: ScanReport, frame: Int, width: Int, height: Int) {
        let time = Timestamp.now()
        if statusShown { stderr.write("\r\u{1B}[K") }
        var event = FrameEventRecord(device: settings.device, frame: frame, time: time, width: width, height: height,
                                     report: report, printed: codes, options: recordOptions)
        if let (japanese, seen) = lastJapanese, frame - seen <= Self.pairingFrames,
           let isbn = event.isbns.first(where: { $0.isbn13.hasPrefix("9784") && $0.jpBookCode == nil }) {
            event.attach(japanese, to: isbn.isbn13)
        }
        // Recorded (and committed) before it is printed: nothing printed is ever missing from the catalogue.
        guard !catalogFailed else { return }
        var already: [String] = []
        if let catalogue {
            do { already = try catalogue.record(event, at: time) } catch {
                // What the catalogue could not keep is not printed either, and the session ends.
                endStatusLine()
                let isbns = event.isbns.map(\.isbn13).joined(separator: ", ")
                stderr.write("Error: \(error); stopping: \(isbns) not recorded, so not printed either\n")
                return
            }
        }
        let recorded = catalogue != nil
        stdout.write(settings.json ? JSONLinesFormatter().format(event)
                                   : TextFormatter(options: .init(addOns: settings.addOns)).format(event))
        if !settings.quiet { for line in already { warn(line) } }
        if settings.beep { stderr.write(already.isEmpty ? "\u{7}" : "\u{7}\u{7}") }
        for isbn in event.isbns { tally.add(isbn.isbn13, frame: frame, time: time, recorded: recorded) }
        lookup?.submit(event.isbns.map(\.isbn13))
        lastPrintedFrame = frame
        if let last = event.isbns.last {
            let count = self.count
            preview?.withLock {
                $0.isbnCount = count
                $0.lastISBN = last.hyphenated ?? last.isbn13
                $0.lastISBN13 = last.isbn13
                $0.lastJapaneseCode = last.jpBookCode.map { "C-code \($0.cCode), \($0.priceText)" }
                $0.alreadyInCatalogue = !already.isEmpty
            }
        }
    }

    /// The books' answers: their lines on stdout without `--db` (with it they are in the
    /// catalogue), their titles in the preview.
    private func deliver(_ answers: [BackgroundLookup.Answer]) {
        for answer in answers {
            if settings.db == nil && !answer.cached, let line = BackgroundLookup.line(answer.record, json: settings.json) {
                if statusShown { stderr.write("\r\u{1B}[K") }
                stdout.write(line)
            }
            if let book = answer.record.metadata {
                let isbn13 = answer.record.isbn13
                preview?.withLock { $0.titles[isbn13] = book.title ?? book.byStatement }
            }
        }
    }

    /// Takes back the last ISBN printed: out of the counts, and out of the catalogue when it
    /// was recorded there (only this sighting). stdout cannot be taken back: the line stays.
    private func undoLast() {
        guard let last = tally.undoLast() else {
            if !settings.quiet { status("nothing to undo") }
            return
        }
        var note = ""
        do {
            if try catalogue?.remove(last) == true { note = " (removed from the catalogue)" }
        } catch {
            endStatusLine()
            stderr.write("Error: \(error)\n")
        }
        endStatusLine()
        if !settings.quiet { stderr.write("camera: undone \(last.isbn13)\(note)\n") }
        let count = self.count
        let previous = tally.printed.last?.isbn13
        preview?.withLock {
            $0.isbnCount = count
            $0.lastISBN = previous.map { isbn in self.recordHyphenated(isbn) }
            $0.lastISBN13 = previous
            $0.lastJapaneseCode = nil
            $0.alreadyInCatalogue = false
        }
    }

    private func recordHyphenated(_ isbn13: String) -> String {
        recordOptions.ranges?.hyphenate(isbn13).hyphenated ?? isbn13
    }

    /// The summary on stderr and the exit status of the session that ended with `summary`.
    func finish(_ summary: CameraSession.Summary) -> ExitStatus {
        // Undo asked for as the session ended.
        let pendingUndo = undoRequests.withLock { n in defer { n = 0 }; return n }
        for _ in 0..<pendingUndo { undoLast() }
        // The books not answered yet, unless the session was interrupted: then they are left
        // (with --db, pending for 'catalog lookup').
        var interrupted = false
        if case .stopped(let signal) = summary.end, signal != 0 { interrupted = true }
        if let lookup, !interrupted, !catalogFailed {
            _ = lookup.finish(shouldStop: { StopSignal.received != nil || stdout.writeFailed }, each: deliver)
        }
        endStatusLine()
        if let lookup, !settings.quiet {
            if let line = lookup.summaryLine { stderr.write(line + "\n") }
            if let line = lookup.unfinishedLine(db: settings.db) { stderr.write(line + "\n") }
        }
        if case .failed = summary.end { return .inputError }
        let s = settings
        if !s.quiet {
            for line in tally.summaryLines(summary, settings: s) { stderr.write(line + "\n") }
        }
        if catalogFailed { return .inputError }
        if case .stopped(let signal) = summary.end {
            if !s.quiet {
                let why = signal == 0 ? "stopped from the preview window" : "interrupted by \(signalName(signal))"
                stderr.write("camera: \(why); camera released\n")
            }
            // q, Esc or closing the window is the user's way to end a session (signal 0): a normal
            // end, with the statuses of --timeout. Only a signal is an interruption.
            if signal != 0 { return .interrupted }
        }
        return tally.count + tally.undone > 0 ? .found : .nothingFound
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
