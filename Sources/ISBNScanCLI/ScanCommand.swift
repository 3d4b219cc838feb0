#if canImport(Glibc)
import Glibc
#endif
import Batch
import Capture
import Imaging
import ISBN
import Scanning

/// `isbnscan scan FILE|FOLDER...`: reads the barcodes in image files, one or thousands.
enum ScanCommand {
    static let spec = CommandSpec(
        name: "scan",
        abstract: "Read the book barcodes (EAN-13 ISBNs) in image files and folders.",
        usage: "isbnscan scan [options] <file-or-folder> ...",
        arguments: [("<file-or-folder>", """
            JPEG, PNG, HEIF/HEIC/AVIF, TIFF (every page), WebP, GIF (first
            frame), BMP, PGM or PPM image; the format is read from the
            file's first bytes, not its name. EXIF orientation (TIFF
            Orientation, HEIF rotations) is applied.
            A folder: its images are scanned (with -r, also its subfolders').
            '-' reads one image from standard input.
            """)],
        options: [
            OptionSpec("recursive", short: "r", help: "Also scan the subfolders of the folders given, at any depth."),
            OptionSpec("hidden", help: "Include files and folders whose name starts with '.' (left out\nby default when walking a folder)."),
            OptionSpec("jobs", short: "j", value: "n", help: "Scan n files at a time (default: the number of CPU cores,\n\(BatchScanner.defaultJobs) here). Results keep the input order."),
            OptionSpec("roi", value: "x,y,w,h", help: """
                Scan only this region of the upright image: fractions 0...1 of
                its width and height, origin top-left. The iOS reader's band
                is 0.05,0.4,0.9,0.15. Default: the whole image.
                """),
            OptionSpec("roi-avfoundation", value: "x,y,w,h", help: """
                The same region given as AVFoundation's rectOfInterest (rotated
                90 degrees: what iOS code passes as CGRect(x: y, y: 1-x-w,
                width: h, height: w)). 0.4,0.05,0.15,0.9 is the band above.
                """),
            OptionSpec("effort", value: "level", help: """
                How hard to try: fast (zbar scans of the image as it is),
                normal (then recovery passes: smoothing, isbnscan's own
                per-digit line decoder for curved or tiny barcodes, tone
                curves, thresholding, inversion, scaling, rotations; the
                default) or thorough (more angles, upscaling, every line).
                """),
            OptionSpec("all", help: "Print every EAN-13/EAN-8 read, each with its verdict,\nnot only accepted ISBNs."),
            OptionSpec("addons", help: "Also read EAN-5/EAN-2 add-ons (the price code beside an\nISBN) and print them after the ISBN."),
            OptionSpec("json", help: "One JSON object per file (JSON Lines), with every symbol,\nits position and the verdicts."),
            OptionSpec("csv", help: "CSV (RFC 4180) with a header row: one row per code read,\nand one per file without code or unreadable."),
            OptionSpec("unique", help: "List each ISBN once, after the scan, with how many files\nshowed it and the first of them."),
            OptionSpec("output", short: "o", value: "file", help: """
                Write the results to this file instead of standard output.
                It appears complete or not at all: written to a temporary
                file beside it and renamed at the end.
                """),
            OptionSpec("max-pixels", value: "n", help: "Refuse images larger than n pixels before decoding\n(default: 120000000)."),
            OptionSpec("quiet", short: "q", help: "No warnings, progress or summary on stderr (errors still\nappear)."),
        ],
        discussion: """
        OUTPUT (text, the default):
          One accepted ISBN-13 per line; '<file>: <isbn13>' when several files
          or a folder are given. With --addons: '<isbn13> <add-on>'. With --all,
          one line per code: '<type> <digits> accepted ISBN-10 <isbn10>' or
          '<type> <digits> rejected <reason>: <detail>'. Without --all,
          refused codes are reported on stderr as warnings instead.
          With --unique: '<isbn13> <count> <first file>' per ISBN.
          A code is accepted only if it has 13 digits, starts with 978 and has
          the right check digit. Reasons for refusal: length, prefix,
          check-digit, non-digit, ambiguous (one barcode read two ways).
          File names that are not valid UTF-8 are shown with \\xNN for each
          such byte; control characters as \\n, \\t, \\xNN.

        FOLDERS:
          Files in a folder are taken in byte order of their names (as 'ls'
          in the C locale), a subfolder's files at its place; paths on the
          command line in the order given. Files whose first bytes are no
          image are skipped and counted, unless the name ends like an image
          (.jpg, .png, .heic...): then they are reported as unreadable.
          Symbolic links are followed; a folder is never walked twice.
          On a terminal, stderr shows a progress bar; a summary line ends
          every run with several files. Ctrl-C stops cleanly: files in
          progress finish, everything done is written, exit status 130.

        JSON (--json), one line per file:
          {"file", "width", "height", "symbols": [{"type", "data", "addon",
           "quality", "orientation", "polygon": [[x,y] x4, clockwise from
           top-left, pixels of the upright image], "pass" (which decoding
           pass read it: full, smooth, invert, rotate+30...), "verdict",
           "reason"}],
           "isbns": [{"isbn13", "isbn10", "addon"}],
           "rejected": [{"type", "data", "reason", "detail"}], "error"}
          With --unique: {"isbn13", "isbn10", "count", "file"} per ISBN.

        CSV (--csv): columns file,isbn13,isbn10,type,data,addon,status,error;
          status is accepted, rejected (error holds 'reason: detail'),
          no-barcode or error (error holds the cause). Lines end in CRLF.
          With --unique: isbn13,isbn10,count,file.

        EXIT STATUS:
          0    an ISBN was found (with --all: any EAN symbol)
          1    an input could not be read (takes precedence over 0, 4)
          2    usage error
          3    the results could not be written (-o file or stdout: a full
               disk; a closed pipe, as with '| head', ends the run quietly);
               takes precedence over 0, 1, 4
          4    every input was read, and no ISBN was found
          130  interrupted (SIGINT/SIGTERM); the results so far are written

        EXAMPLES:
          isbnscan scan cover.jpg
          isbnscan scan -r --csv -o books.csv ~/Pictures/shelf
          isbnscan scan --unique -r photos/
          isbnscan scan --all --json shelf/*.jpg
          isbnscan scan --roi 0.05,0.4,0.9,0.15 --addons back-cover.png
        """)

    enum Format { case text, json, csv }

    struct Settings {
        var region = RegionOfInterest.full
        var all = false
        var addOns = false
        var format = Format.text
        var unique = false
        var output: String?
        var quiet = false
        var decode = DecodeOptions()
        var effort = Effort.normal
        var walk = WalkOptions()
        var jobs = BatchScanner.defaultJobs
    }

    static func settings(from parsed: ParsedArguments) throws(UsageError) -> Settings {
        var settings = Settings()
        if let region = try region(from: parsed) { settings.region = region }
        if let text = parsed.value("max-pixels") {
            settings.decode.maxPixels = try ArgumentParser.integer(text, option: "--max-pixels", in: 1...(1 << 40))
        }
        if let text = parsed.value("jobs") {
            settings.jobs = try ArgumentParser.integer(text, option: "--jobs", in: 1...256)
        }
        if let text = parsed.value("effort") {
            guard let effort = Effort(rawValue: text) else {
                throw UsageError("--effort '\(text)' is not one of fast, normal, thorough")
            }
            settings.effort = effort
        }
        if parsed.flag("json") && parsed.flag("csv") { throw UsageError("give either --json or --csv, not both") }
        settings.format = parsed.flag("json") ? .json : parsed.flag("csv") ? .csv : .text
        if let output = parsed.value("output") {
            guard !output.isEmpty else { throw UsageError("--output needs a file name") }
            settings.output = output == "-" ? nil : output
        }
        settings.all = parsed.flag("all")
        settings.addOns = parsed.flag("addons")
        settings.unique = parsed.flag("unique")
        if settings.unique && settings.all { throw UsageError("--unique lists accepted ISBNs only; it cannot be combined with --all") }
        if settings.unique && settings.addOns {
            throw UsageError("--unique counts ISBNs, whatever their add-on; it cannot be combined with --addons")
        }
        settings.quiet = parsed.flag("quiet")
        settings.walk = WalkOptions(recursive: parsed.flag("recursive"), includeHidden: parsed.flag("hidden"))
        return settings
    }

    /// The region given with `--roi` or `--roi-avfoundation` (not both), or `nil`.
    static func region(from parsed: ParsedArguments) throws(UsageError) -> RegionOfInterest? {
        if parsed.value("roi") != nil && parsed.value("roi-avfoundation") != nil {
            throw UsageError("give either --roi or --roi-avfoundation, not both")
        }
        do {
            if let text = parsed.value("roi") { return try RegionOfInterest(parsing: text) }
        } catch { throw UsageError("--roi: \(error)") }
        do {
            if let text = parsed.value("roi-avfoundation") { return try RegionOfInterest(parsingAVFoundation: text) }
        } catch { throw UsageError("--roi-avfoundation: \(error)") }
        return nil
    }

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink, isTerminal: Bool) throws(UsageError) -> ExitStatus {
        let settings = try settings(from: parsed)
        guard !parsed.rawPositionals.isEmpty else { throw UsageError("no image file or folder given") }
        let paths = parsed.rawPositionals.map(RawPath.init(bytes:))
        if paths.filter(\.isStandardInput).count > 1 { throw UsageError("'-' (standard input) can be given only once") }

        let walk = FolderWalker.walk(paths, options: settings.walk)
        let progress = isTerminal && !settings.quiet && walk.inputs.count > 1
            ? ProgressBar(sink: stderr, total: walk.inputs.count) : nil
        let diagnostics = DiagnosticSink(stderr, clearing: progress)
        if !settings.quiet {
            for folder in walk.revisitedFolders {
                diagnostics.write("Warning: \(escaped(folder.description, json: false)): folder already walked (named twice, or reached again through a symbolic link), not entered again\n")
            }
        }

        if let output = settings.output, let clash = Self.input(in: walk, sameFileAs: output) {
            throw UsageError("--output \(escaped(output, json: false)) is the input \(escaped(clash, json: false)); refusing to overwrite it")
        }
        let file: AtomicFileSink?
        do {
            file = try settings.output.map { (path) throws(OutputError) in try AtomicFileSink(path: path) }
        } catch {
            diagnostics.write("Error: \(error)\n")
            return .outputError
        }
        let results: TextSink = file ?? stdout
        let writer = ResultWriter(settings: settings, showNames: paths.count > 1 || walk.foldersGiven > 0, out: results, diagnostics: diagnostics)
        writer.begin()

        let options = settings.decode, scannerOptions = ScannerOptions(addOns: settings.addOns)
        let region = settings.region, effort = settings.effort
        let batch = BatchScanner(jobs: settings.jobs) {
            FileScanner(decodeOptions: options, scannerOptions: scannerOptions, region: region, effort: effort)
        }
        StopSignal.install()
        var tally = Tally()
        let start = monotonicSeconds()
        // A failed write (closed pipe, full disk) stops the run: nothing more can be delivered.
        batch.run(walk.inputs, idle: {
            if StopSignal.received != nil || results.writeFailed { batch.stop() }
            progress?.draw(done: tally.files + tally.skipped, found: tally.withISBN)
        }, deliver: { _, outcome in
            switch outcome {
            case .skipped: tally.skipped += 1
            case .scanned(let result):
                tally.add(result, all: settings.all)
                writer.write(result)
            }
            if StopSignal.received != nil || results.writeFailed { batch.stop() }
            progress?.draw(done: tally.files + tally.skipped, found: tally.withISBN)
        })
        writer.finish()
        progress?.clear()

        var status = tally.exitStatus
        do {
            try file?.commit()
        } catch {
            diagnostics.write("Error: \(error)\n")
            status = .outputError
        }
        let interrupted = StopSignal.received
        if let signal = interrupted {
            stderr.write("Interrupted by \(signalName(signal)): \(tally.files + tally.skipped) of \(walk.inputs.count) files done"
                         + (settings.output.map { ", written to \(escaped($0, json: false))" } ?? "") + "\n")
        }
        if !settings.quiet && (writer.showNames || interrupted != nil) {
            stderr.write(tally.summary(walk: walk, seconds: monotonicSeconds() - start) + "\n")
        }
        return interrupted != nil ? .interrupted : status
    }
}

extension ScanCommand {
    /// The input that is the same file as `output` (same device and inode), if any.
    static func input(in walk: FolderWalk, sameFileAs output: String) -> String? {
        var target = stat()
        guard stat(output, &target) == 0 else { return nil }
        for input in walk.inputs where !input.path.isStandardInput {
            var info = stat()
            if input.path.withCString({ stat($0, &info) }) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino {
                return input.path.description
            }
        }
        return nil
    }
}

/// Standard error with the progress bar taken off before each line.
final class DiagnosticSink: TextSink {
    private let sink: TextSink
    private let progress: ProgressBar?
    init(_ sink: TextSink, clearing progress: ProgressBar?) {
        self.sink = sink
        self.progress = progress
    }
    func write(_ text: String) {
        progress?.clear()
        sink.write(text)
    }
}

/// Counts over a run: what the summary line says and which exit status results.
struct Tally {
    var files = 0
    var withISBN = 0
    var withoutCode = 0
    /// Files whose codes were all refused (no ISBN among them).
    var refusedOnly = 0
    var rejectedCodes = 0
    var errors = 0
    /// Files in folders left out because they are no image.
    var skipped = 0
    var found = false

    mutating func add(_ result: FileScanResult, all: Bool) {
        files += 1
        guard let report = result.report else { errors += 1; return }
        let hasISBN = report.codes.contains { $0.verdict.isbn != nil }
        if hasISBN { withISBN += 1 }
        if report.codes.isEmpty { withoutCode += 1 }
        if !hasISBN && !report.codes.isEmpty { refusedOnly += 1 }
        rejectedCodes += report.rejected.count
        if hasISBN || (all && !report.codes.isEmpty) { found = true }
    }

    var exitStatus: ExitStatus { errors > 0 ? .inputError : (found ? .found : .nothingFound) }

    /// `scanned 4 files: 2 with an ISBN, 1 with refused codes only, 0 without any barcode, 1 unreadable
    /// (3 codes refused; 0.4 s, 10 files/s)`: the four file counts add up to the files scanned;
    /// then what the walk left out, if anything.
    func summary(walk: FolderWalk, seconds: Double) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var line = "scanned \(plural(files, "file")): \(withISBN) with an ISBN, \(refusedOnly) with refused codes only, "
            + "\(withoutCode) without any barcode, \(errors) unreadable"
        line += " (\(plural(rejectedCodes, "code")) refused; \(formatSeconds(seconds)) s, "
            + "\(formatRate(seconds > 0 ? Double(files) / seconds : 0)) files/s)"
        var left: [String] = []
        if skipped > 0 { left.append(plural(skipped, "non-image file")) }
        if walk.skippedHidden > 0 { left.append("\(walk.skippedHidden) hidden (use --hidden)") }
        if walk.skippedFolders > 0 { left.append(plural(walk.skippedFolders, "subfolder") + " (use -r)") }
        if walk.skippedSpecial > 0 { left.append(plural(walk.skippedSpecial, "special file") + " (FIFO, socket, device)") }
        if !left.isEmpty { line += "; left out " + left.joined(separator: ", ") }
        return line
    }

    private func formatSeconds(_ seconds: Double) -> String {
        seconds >= 10 ? String(Int(seconds.rounded())) : String(Double(Int((seconds * 10).rounded())) / 10)
    }
}
