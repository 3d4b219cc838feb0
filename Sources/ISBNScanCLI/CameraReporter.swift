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

/// What `isbnscan camera` makes of a session's events: it hands each to the type whose job it
/// is and prints the results on stdout (text or JSON Lines). The others: ``CameraStatusLines``
/// (stderr), ``CameraCatalogue`` (`--db`), ``CameraTally`` (counts, summary, exit status),
/// ``SecondRowPairing`` (a Japanese book's two barcodes), ``BackgroundLookup`` (`--lookup`) and
/// the preview's ``PreviewState``.
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
    private var lines: CameraStatusLines
    /// Hyphenation and accepted prefixes for the records printed.
    let recordOptions: RecordOptions
    /// `--db`: where printed ISBNs are recorded.
    let catalogue: CameraCatalogue?
    /// A confirmed ISBN could not be recorded: the session stops, exit 1.
    private var catalogFailed: Bool { catalogue?.failed == true }
    private(set) var tally = CameraTally()
    private var pairing = SecondRowPairing()
    /// The session is paused (frames not scanned).
    private var paused = false
    private let undoRequests = Mutex(0)
    /// With `--preview`: what the window shows, updated from every event.
    let preview: Mutex<PreviewState>?
    /// `--lookup`: the books looked up on their own thread after they are printed (and recorded).
    let lookup: BackgroundLookup?

    init(settings: CameraCommand.Settings, stdout: TextSink, stderr: TextSink, catalog: Catalog? = nil) {
        self.catalogue = catalog.map { CameraCatalogue($0, device: settings.device) }
        self.settings = settings
        self.stdout = stdout
        self.stderr = stderr
        self.lines = CameraStatusLines(stderr: stderr, quiet: settings.quiet)
        self.recordOptions = RecordOptions(ranges: RangesCommand.load(stderr: stderr).ranges, prefixes: settings.prefixes)
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
    /// cannot be written, or an ISBN could not be recorded).
    func handle(_ event: LiveScanEvent) -> Bool {
        preview?.withLock { $0.apply(event) }
        if let lookup { deliver(lookup.drain()) }
        undoRequested()
        let s = settings
        switch event {
        case .started(let info, let format, let rect):
            lines.status("\(s.device): '\(info.card)' (driver \(info.driver))\(info.canStream ? "" : ", read() I/O")")
            lines.status("\(format), scanning \(rect.width)x\(rect.height) pixels at (\(rect.x),\(rect.y)) "
                         + "(region \(s.region)); \(s.continuous ? "--continuous, Ctrl-C stops" : "stops at the first ISBN")")
            if !s.preview { lines.status(Self.whereToHold(s.region)) }
        case .frame(let info):
            if info.scanned == paused {   // space in the preview window
                paused = !info.scanned
                lines.status(paused ? "paused (space resumes)" : "resumed")
            }
            lines.frame(info, isbns: count)
        case .read(let frame, let report):
            pairing.read(report, frame: frame)
        case .badFrame(let frame, let error):
            tally.badFrames += 1
            if tally.badFrames == 1 && !s.quiet { lines.warn("frame \(frame): \(error.description)") }
        case .refused(let frame, let code):
            if let japanese = JapaneseBookCode(ean: code.symbol.data) {
                // Not a refused product: the second row of a Japanese book, said once.
                if !s.quiet && pairing.shouldExplain(japanese, at: frame) {
                    lines.status("frame \(frame): \(japanese.code) is \(japanese.refusalDetail)")
                }
            } else if !s.quiet {
                lines.warn("frame \(frame): \(code.symbol.symbology.rawValue) \(code.symbol.data) refused, \(code.verdict.rejection!)")
            }
        case .confirmed(let frame, _, let width, let height, let report, let codes):
            confirmed(codes, report: report, frame: frame, width: width, height: height)
        case .deviceError(let error):
            lines.error(error.description)
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
        lines.clear()
        var event = FrameEventRecord(device: settings.device, frame: frame, time: time, width: width, height: height,
                                     report: report, printed: codes, options: recordOptions)
        pairing.attach(to: &event, frame: frame)
        // Recorded (and committed) before it is printed: nothing printed is ever missing from the catalogue.
        guard !catalogFailed else { return }
        var already: [String] = []
        if let catalogue {
            do { already = try catalogue.record(event, at: time) } catch {
                // What the catalogue could not keep is not printed either, and the session ends.
                let isbns = event.isbns.map(\.isbn13).joined(separator: ", ")
                lines.error("\(error); stopping: \(isbns) not recorded, so not printed either")
                return
            }
        }
        stdout.write(settings.json ? JSONLinesFormatter().format(event)
                                   : TextFormatter(options: .init(addOns: settings.addOns)).format(event))
        if !settings.quiet { for line in already { lines.warn(line) } }
        if settings.beep { stderr.write(already.isEmpty ? "\u{7}" : "\u{7}\u{7}") }
        for isbn in event.isbns { tally.add(isbn.isbn13, frame: frame, time: time, recorded: catalogue != nil) }
        lookup?.submit(event.isbns.map(\.isbn13))
        pairing.printed(at: frame)
        if let last = event.isbns.last {
            let count = self.count
            preview?.withLock {
                $0.printed(last.hyphenated ?? last.isbn13, isbn13: last.isbn13,
                           japaneseCode: last.jpBookCode.map { "C-code \($0.cCode), \($0.priceText)" }, count: count,
                           alreadyInCatalogue: !already.isEmpty)
            }
        }
    }

    /// The books' answers: their lines on stdout without `--db` (with it they are in the
    /// catalogue), their titles in the preview.
    private func deliver(_ answers: [BackgroundLookup.Answer]) {
        for answer in answers {
            if settings.db == nil && !answer.cached, let line = BackgroundLookup.line(answer.record, json: settings.json) {
                lines.clear()
                stdout.write(line)
            }
            if let book = answer.record.metadata {
                let isbn13 = answer.record.isbn13
                preview?.withLock { $0.titles[isbn13] = book.title ?? book.byStatement }
            }
        }
    }

    /// Undoes what the preview asked to undo since the last event.
    private func undoRequested() {
        let pending = undoRequests.withLock { n in defer { n = 0 }; return n }
        for _ in 0..<pending { undoLast() }
    }

    /// Takes back the last ISBN printed: out of the counts, and out of the catalogue when it
    /// was recorded there (only this sighting). stdout cannot be taken back: the line stays.
    private func undoLast() {
        guard let last = tally.undoLast() else {
            lines.status("nothing to undo")
            return
        }
        var note = ""
        do {
            if try catalogue?.remove(last) == true { note = " (removed from the catalogue)" }
        } catch {
            lines.error("\(error)")
        }
        lines.status("undone \(last.isbn13)\(note)")
        let count = self.count
        let previous = tally.printed.last?.isbn13
        let shown = previous.map { recordOptions.ranges?.hyphenate($0).hyphenated ?? $0 }
        preview?.withLock { $0.undone(back: shown, isbn13: previous, count: count) }
    }

    /// The summary on stderr and the exit status of the session that ended with `summary`.
    func finish(_ summary: CameraSession.Summary) -> ExitStatus {
        undoRequested()   // asked for as the session ended
        // The books not answered yet, unless the session was interrupted: then they are left
        // (with --db, pending for 'catalog lookup').
        var interrupted = false
        if case .stopped(let signal) = summary.end, signal != 0 { interrupted = true }
        if let lookup, !interrupted, !catalogFailed {
            _ = lookup.finish(shouldStop: { StopSignal.received != nil || stdout.writeFailed }, each: deliver)
        }
        lines.endLine()
        if let lookup, !settings.quiet {
            if let line = lookup.summaryLine { stderr.write(line + "\n") }
            if let line = lookup.unfinishedLine(db: settings.db) { stderr.write(line + "\n") }
        }
        let status = tally.exitStatus(summary.end, catalogFailed: catalogFailed)
        if case .failed = summary.end { return status }
        if !settings.quiet {
            for line in tally.summaryLines(summary, settings: settings) { stderr.write(line + "\n") }
        }
        if !catalogFailed, !settings.quiet, case .stopped(let signal) = summary.end {
            let why = signal == 0 ? "stopped from the preview window" : "interrupted by \(signalName(signal))"
            stderr.write("camera: \(why); camera released\n")
        }
        return status
    }
}
