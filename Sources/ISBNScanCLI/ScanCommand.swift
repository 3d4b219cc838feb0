// SPDX-License-Identifier: Apache-2.0
import Records
#if canImport(Glibc)
import Glibc
#endif
import Batch
import Catalog

import Imaging
import ISBN
import Lookup
import Scanning
import TextReading

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
            '-' reads one image from standard input (through a pipe: at
            most 100 MiB). Only the bytes of the image are read, not what
            follows it in the file.
            """)],
        options: [
            OptionSpec("recursive", short: "r", help: "Also scan the subfolders of the folders given, at any depth."),
            OptionSpec("hidden", help: "Include files and folders whose name starts with '.' (left out\nby default when walking a folder)."),
            OptionSpec("jobs", short: "j", value: "n", help: "Scan n files at a time (default: the number of CPU cores,\n\(BatchScanner.defaultJobs) here). Results keep the input order."),
            OptionSpec("files-from", value: "file", help: """
                Also scan the paths listed in this file, one per line ('-':
                read the list from standard input), after those given as
                arguments. Each is taken like an argument (folders walked).
                """),
            OptionSpec("null", short: "0", help: "With --files-from: the list is separated by NUL bytes, as\n'find -print0' writes it (names may then hold newlines)."),
            OptionSpec("shard", value: "i/n", help: """
                Scan only shard i of n (i from 0): the files whose path
                hashes to i (FNV-1a 64 of the path's bytes as given or
                walked, mixed, modulo n). Runs 0/n ... n-1/n together scan
                every file exactly once, on as many machines as you like.
                """),
            OptionSpec("roi", value: "x,y,w,h", help: """
                Scan only this region of the upright image: fractions 0...1 of
                its width and height, origin top-left, or percentages with '%'
                (5%,40%,90%,15%), not both in one region. The iOS reader's
                band is 0.05,0.4,0.9,0.15. Default: the whole image.
                """),
            OptionSpec("roi-avfoundation", value: "x,y,w,h", help: """
                The same region given as AVFoundation's rectOfInterest (rotated
                90 degrees: what iOS code passes as CGRect(x: y, y: 1-x-w,
                width: h, height: w)), as fractions or percentages with '%':
                0.4,0.05,0.15,0.9 (40%,5%,15%,90%) is the band above.
                """),
            OptionSpec("effort", value: "level", help: """
                How hard to try: fast (zbar scans of the image as it is),
                normal (then recovery passes where something looks like a
                barcode: smoothing, isbnscan's own per-digit line decoder
                for curved or tiny barcodes, tone curves, thresholding,
                inversion, scaling, rotations, and a fit of the whole
                symbol for out-of-focus barcodes; the default) or thorough
                (then more angles, upscaling, every line). Each level does
                all the level below does first, so it reads every code the
                lower level reads. At fast, a photo where nothing looks
                like a barcode ends after the first look; normal then
                looks for strongly blurred bars at half scale. At thorough, a photo
                where no barcode at all was read is also read as text,
                as with --text, and so are the digits printed under a
                barcode whose bars read two ways (when libtesseract5 is
                installed).
                """),
            OptionSpec("text", help: """
                Also read ISBNs printed as text ('ISBN 0-306-40615-2' on a
                copyright page or a back cover without a barcode) with
                Tesseract OCR (libtesseract5, tesseract-ocr-eng). Only a line
                with the keyword ISBN counts; its digits need a valid check
                digit and a defined range; ISBN-10s become 978 ISBN-13s. Such
                readings have type 'ISBN text'. Costs about a second a page;
                text is not read from standard input. Also reads the digits
                printed under a barcode whose bars leave it in doubt, to
                settle it (see PRINTED ISBNS). See Documentation/text.md.
                """),
            OptionSpec("all", help: "Print every EAN-13/EAN-8 read, each with its verdict,\nnot only accepted ISBNs."),
            OptionSpec("addons", help: "Also read EAN-5/EAN-2 add-ons (the price code beside an\nISBN) and print them after the ISBN."),
ArgumentParser.acceptOption,
            OptionSpec("json", help: "One JSON object per file (JSON Lines), with every symbol,\nits position and the verdicts."),
            OptionSpec("csv", help: "CSV (RFC 4180) with a header row: one row per code read,\nand one per file without code or unreadable."),
            OptionSpec("unique", help: "List each ISBN once, after the scan, with how many files\nshowed it and the first of them."),
            OptionSpec("output", short: "o", value: "file", help: """
                Write the results to this file instead of standard output.
                It appears complete or not at all: written to a temporary
                file beside it and renamed at the end. Refused (status 2)
                when it is one of the inputs, the --db catalogue or one of
                its journal files (-wal, -shm, -journal). '-' is standard
                output.
                """),
            OptionSpec("db", value: "file", help: """
                Record every file scanned and every ISBN accepted in this
                catalogue (SQLite; created if missing; see 'isbnscan catalog').
                A file is known by its canonical path (however it is typed)
                and by its device, inode, size, modification time and a
                hash of its first and last 4 KiB. Run again, files already
                in it and unchanged are not scanned again: nothing of theirs
                is printed on stdout or stderr (no result line, no warning),
                but the summary and the exit status count them, and -o
                receives their results from the catalogue. A file named on
                the command line (not found in a folder) gets a line on
                stderr: '<file>: unchanged since it was catalogued on <time>,
                not scanned again (--rescan to scan it)'. Files that could
                not be read are tried again; paths that name no file are not
                recorded. Several scans may write one catalogue at once:
                each waits for the others' short transactions (up to
                ISBNSCAN_LOCK_TIMEOUT seconds, default 120); a result that
                cannot be recorded stops the run (status 1) unprinted.
                """),
            OptionSpec("rescan", help: "With --db: scan every file again, even unchanged ones."),
        ] + LookupCommand.backgroundOptions + [
            OptionSpec("max-pixels", value: "n", help: "Refuse images larger than n pixels before decoding\n(default: 120000000)."),
            OptionSpec("max-pages", value: "n", help: """
                Read at most n pages of a multi-page TIFF (default: 10000);
                the pages after them are left out, with a warning saying how
                many.
                """),
            OptionSpec("quiet", short: "q", help: "No warnings, progress, summary or --db 'unchanged' lines\non stderr (errors still appear)."),
        ],
        discussion: """
        OUTPUT (text, the default):
          One accepted ISBN-13 per line; '<file>: <isbn13>' when several files
          or a folder are given. With --addons: '<isbn13> <add-on>'. With --all,
          one line per code: '<type> <digits> accepted ISBN-10 <isbn10>
          <hyphenated> (<group> <agency>) add-on <digits> (<price>)
          printed digits <digits>' (the last when the digits under the
          barcode were read) or '<type> <digits> rejected <reason>:
          <detail>'. Without --all,
          refused codes are reported on stderr as warnings instead (not a
          misread of an ISBN accepted at the same place: that is no problem).
          With --unique: '<isbn13> <count> <first file>' per ISBN.
          A code is accepted only if it has 13 digits, starts with 978 (or 979
          with --accept 979) and has the right check digit. Reasons for
          refusal: length, prefix, ismn (979-0, printed music), check-digit,
          non-digit, misread (another reading of the same barcode has clearly
          more evidence), ambiguous (one barcode read several ways, none
          clearly best: take the photo again). Every reading is re-measured
          on the image; see Documentation/decoding-and-trust.md.
          Hyphenation and registration groups come from the ISBN range
          message ('isbnscan ranges'); a 5-digit add-on is decoded as a price
          (first digit the currency: 0/1 GBP, 3 AUD, 4 NZD, 5 USD, 6 CAD;
          90000 no suggested price).
          File names that are not valid UTF-8 are shown with \\xNN for each
          such byte; control characters as \\n, \\t, \\xNN.

        PRINTED ISBNS (--text):
          A line counts only with the keyword ISBN (ISBN:, ISBN-10:, ISBN-13,
          ISBN4-...), followed by 10 or 13 digits in whole groups, with a
          valid check digit (ISBN-10 mod 11 with X, ISBN-13 mod 10) in a range
          the range message defines; printed hyphens are not evidence. Each
          such line is read two or three times; two readings must agree (a
          line read two ways is refused: ambiguous). Phone numbers, prices,
          ISSNs and pages of figures give nothing. Pages turned 90, 180 or 270
          degrees are read too. See Documentation/text.md.
          With --text and at --effort thorough, where the bars of an EAN-13
          leave it in doubt (two codes with a valid check digit read there,
          neither with three times the other's evidence), the 13 digits
          printed under it are read once, as one more measurement: equal to
          one of the codes the bars read (and trust), they settle it; equal
          to the rival of a narrow winner, nothing is accepted there; any
          other digits change nothing. They never make an ISBN the bars do
          not read, and a barcode its bars decide is not read as text.

        FOLDERS:
          Files in a folder are taken in byte order of their names (as 'ls'
          in the C locale), a subfolder's files at its place; paths on the
          command line in the order given. Files whose first bytes are no
          image are skipped and counted, unless the name ends like an image
          (.jpg, .png, .heic...): then they are reported as unreadable.
          Symbolic links are followed; a folder is never walked twice,
          nor a file named twice (under any name) scanned twice.
          On a terminal, stderr shows a progress bar (its total: the files
          that will be scanned); a summary line ends every run with several
          files. Ctrl-C stops cleanly: files in progress finish, everything
          done is written, exit status 130. A second Ctrl-C ends at once;
          -o's file stays as it was, its temporary file is removed.

        BATCHES (--files-from, --shard):
          --files-from adds listed paths after the arguments; --shard i/n keeps
          the files (listed, given or walked) whose path falls in shard i. Give
          every shard the same arguments and list: a file's shard depends on its
          path alone, so shards never overlap, and adding files never moves
          others. Concatenated --json outputs of all shards are one run's lines.
          With either option, names are always shown ('<file>: <isbn13>').

        JSON (--json), one line per file:
          {"file", "width", "height", "symbols": [{"type", "data", "addon",
           "quality", "orientation", "polygon": [[x,y] x4, clockwise from
           top-left, pixels of the upright image], "pass" (which decoding
           pass read it: full, smooth, invert, rotate+30...), "verdict",
           "reason"}],
           "isbns": [{"isbn13", "isbn10", "addon", "hyphenated" (978-4-87311-
           903-8, null if the range is not defined for use), "group":
           {"prefix", "agency"}, "price": {"currency", "amount", "kind"}}],
           "rejected": [{"type", "data", "reason", "detail"}], "error"}
          "type" is EAN-13, EAN-8 or, for an ISBN read from its printed line
          (--text), ISBN text: its symbol also has "text" (the line as
          recognised) and, when printed, "qualifier" ("pbk."), which its ISBN
          in "isbns" has too; "quality" is then the OCR's confidence, 0-100.
          An EAN-13 whose printed digits were read (see PRINTED ISBNS) has
          "printed_digits": the 13 digits as read.
          Only where they apply: "pages" (multi-page TIFF; "page" in each
          symbol and ISBN), "warning" (a damaged file read in part) and
          "candidates": [{"polygon", "angle", "inverted"}] (barcode-like
          regions where nothing was read: where to retake the photo).
          A Japanese book's second barcode (192/191 + C-code + price) read
          beside its ISBN is that ISBN's "jp_book_code": {"code", "c_code",
          "audience", "format", "subject" (each {"ja", "en"}), "price_yen",
          "tax_included"}, and its symbol's verdict is jp-book-code; alone it
          is refused with reason jp-book-code.
          With --unique: {"isbn13", "isbn10", "count", "file"} per ISBN.

        CSV (--csv): columns
          file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,
          price,page,warning,c_code;
          status is accepted, rejected (error holds 'reason: detail'),
          no-barcode or error (error holds the cause); page is the page of a
          multi-page TIFF (from 1, else empty); warning is set on every row of
          a file read only in part ('truncated: decoded 544 of 750 rows'); c_code is
          the C-code (4 digits) of a Japanese book's second barcode, on its row
          (status jp-book-code, the ISBN it belongs to in isbn13, its price
          as JPY <yen> in price) and on its ISBN's row.
          Lines end in CRLF. A file name that starts with =, +, -, @, a tab
          or CR gets a leading ' so that spreadsheets do not run it as a
          formula.
          With --unique: isbn13,isbn10,count,file.

        EXIT STATUS:
          0    an ISBN was found (with --all: any EAN symbol)
          1    an input could not be read, or the --db catalogue could not
               be opened or written (takes precedence over 0, 4)
          2    usage error
          3    the results could not be written (-o file or stdout: a full
               disk; a closed pipe, as with '| head', ends the run quietly);
               takes precedence over 0, 1, 4
          4    every input was read, and no ISBN was found (without -r, a
               folder's subfolders are not scanned: a last 'Hint:' line
               then says how many were left out)
          130  interrupted (SIGINT/SIGTERM); the results so far are written

        EXAMPLES:
          isbnscan scan cover.jpg
          isbnscan cover.jpg          (the same: an existing file or folder
                                      as first argument implies 'scan')
          isbnscan scan -r --csv -o books.csv ~/Pictures/shelf
          isbnscan scan --unique -r photos/
          isbnscan scan --all --json shelf/*.jpg
          isbnscan scan --roi 0.05,0.4,0.9,0.15 --addons back-cover.png
          isbnscan scan --text --all copyright-page.jpg
          find /data/books -name '*.jpg' -print0 | isbnscan scan --files-from - -0 --json
          isbnscan scan -r --shard 2/8 --json -o part-2.jsonl /data/books
        """,
        brief: brief)

    /// `scan --help`: the options most runs use, grouped; `--help-all` lists every one.
    static let brief = BriefHelp(
        arguments: [("<file-or-folder>", "An image (JPEG, PNG, HEIC/AVIF, TIFF, WebP, GIF, BMP, PGM/PPM),\na folder of them, or '-' (standard input).")],
        groups: [
            ("INPUT", [("recursive", "Also scan the subfolders of the folders given."),
                       ("jobs", "Scan n files at a time (default: the number of CPU cores)."),
                       ("files-from", "Also scan the paths listed in this file ('-': stdin)."),
                       ("roi", "Scan only this region: fractions 0...1 or percentages.")]),
            ("READING", [("effort", "fast, normal (the default) or thorough."),
                         ("text", "Also read ISBNs printed as text (Tesseract OCR)."),
                         ("addons", "Also read EAN-5/EAN-2 add-ons and print them."),
                         ("accept", "Also accept 979 ISBNs.")]),
            ("OUTPUT", [("all", "Print every EAN-13/EAN-8 read, each with its verdict."),
                        ("json", "One JSON object per file (JSON Lines)."),
                        ("csv", "CSV with a header row, one row per code read."),
                        ("unique", "Each ISBN once, after the scan, with its count."),
                        ("output", "Write the results to this file (whole or not at all)."),
                        ("quiet", "No warnings, progress or summary on stderr.")]),
            ("CATALOGUE", [("db", "Record every file and ISBN in this SQLite catalogue;\nrun again, unchanged files are not scanned again."),
                           ("rescan", "With --db: scan every file again.")]),
            ("LOOKUP", [("lookup", "Look each book up (title, authors...) in the background."),
                        ("contact", "Named in the User-Agent, as Open Library asks (3 requests/s, not 1).")]),
        ],
        examples: ["isbnscan scan cover.jpg", "isbnscan scan -r --csv -o books.csv ~/Pictures/shelf",
                   "isbnscan scan -r --db books.db photos/", "isbnscan scan --text copyright-page.jpg"])

    enum Format { case text, json, csv }

    struct Settings {
        var region = RegionOfInterest.full
        var all = false
        var addOns = false
        var format = Format.text
        var unique = false
        var output: String?
        /// `--db`: the catalogue file.
        var db: String?
        var rescan = false
        /// `--accept 979`.
        var prefixes = ISBNPrefixes.only978
        var quiet = false
        var decode = DecodeOptions()
        var effort = Effort.normal
        /// `--text`: read printed ISBNs on every image.
        var text = false
        var walk = WalkOptions()
        var jobs = BatchScanner.defaultJobs
        /// `--files-from`: a list of paths (`-`: standard input), `-0`: NUL-separated.
        var filesFrom: String?
        var nulSeparated = false
        /// `--shard i/n`: only the files of this shard.
        var shard: Shard?
        /// `--lookup`: how books are looked up, or `nil`.
        var lookup: LookupOptions?
    }

    static func settings(from parsed: ParsedArguments) throws(UsageError) -> Settings {
        var settings = Settings()
        let shared = try SharedOptions(parsed, csv: parsed.flag("csv"))
        if let region = shared.region { settings.region = region }
        settings.addOns = shared.addOns
        settings.prefixes = shared.prefixes
        settings.db = shared.db
        settings.lookup = shared.lookup
        if let text = parsed.value("max-pixels") {
            settings.decode.maxPixels = try ArgumentParser.integer(text, option: "--max-pixels", in: 1...(1 << 40))
        }
        if let text = parsed.value("max-pages") {
            settings.decode.maxPages = try ArgumentParser.integer(text, option: "--max-pages", in: 1...1_000_000)
        }
        if let text = parsed.value("jobs") {
            settings.jobs = try ArgumentParser.integer(text, option: "--jobs", in: 1...256)
        }
        if let effort = try ArgumentParser.effort(from: parsed) { settings.effort = effort }
        if shared.json && parsed.flag("csv") { throw UsageError("give either --json or --csv, not both") }
        settings.format = shared.json ? .json : parsed.flag("csv") ? .csv : .text
        if let output = parsed.value("output") {
            guard !output.isEmpty else { throw UsageError("--output needs a file name") }
            settings.output = output == "-" ? nil : output
        }
        settings.all = parsed.flag("all")
        settings.text = parsed.flag("text")
        settings.unique = parsed.flag("unique")
        if settings.unique && settings.all { throw UsageError("--unique lists accepted ISBNs only; it cannot be combined with --all") }
        if settings.unique && settings.addOns {
            throw UsageError("--unique counts ISBNs, whatever their add-on; it cannot be combined with --addons")
        }
        settings.quiet = parsed.flag("quiet")
        settings.rescan = parsed.flag("rescan")
        if settings.rescan && settings.db == nil { throw UsageError("--rescan goes with --db") }
        settings.walk = WalkOptions(recursive: parsed.flag("recursive"), includeHidden: parsed.flag("hidden"))
        if let list = parsed.value("files-from") {
            guard !list.isEmpty else { throw UsageError("--files-from needs a file name ('-' for standard input)") }
            settings.filesFrom = list
        }
        settings.nulSeparated = parsed.flag("null")
        if settings.nulSeparated && settings.filesFrom == nil {
            throw UsageError("-0 (--null) describes the list of --files-from; give the list with --files-from FILE")
        }
        if let text = parsed.value("shard") { settings.shard = try shard(from: text) }
        return settings
    }

    /// `--shard i/n`: shard i (from 0) of n, 1 <= n <= 1000000.
    static func shard(from text: String) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int? {
            part.isEmpty || part.count > 9 || !part.allSatisfy({ $0.isASCII && $0.isNumber }) ? nil : Int(part)
        }
        guard parts.count == 2, let index = number(parts[0]), let count = number(parts[1]) else {
            throw UsageError("--shard '\(text)' is not i/n (shard i of n, i counting from 0: 0/4 1/4 2/4 3/4)")
        }
        guard (1...1_000_000).contains(count) else { throw UsageError("--shard \(text): n must be 1...1000000") }
        guard index < count else {
            throw UsageError("--shard \(text): i counts from 0, so with n = \(count) it is 0...\(count - 1)")
        }
        return Shard(index: index, count: count)
    }

    /// `isbnscan scan`: gathers the inputs, opens where the results go (and the catalogue,
    /// whose plan says which files are scanned again), scans them and delivers each file's
    /// outcome in input order, then ends with the summary and the exit status.
    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink, isTerminal: Bool) throws(UsageError) -> ExitStatus {
        let settings = try settings(from: parsed)
        let inputs: ScanInputs
        switch try ScanInputs.gather(parsed.rawPositionals, settings: settings) {
        case .success(let gathered): inputs = gathered
        case .failure(let error):
            stderr.write(error.message + "\n")
            return .inputError
        }
        let progress = isTerminal && !settings.quiet && inputs.count > 1 ? ProgressBar(sink: stderr, total: inputs.toScan) : nil
        let diagnostics = BarClearingSink(stderr, clearing: progress)
        if !settings.quiet {
            for line in inputs.revisitedWarnings { diagnostics.write(line) }
        }
        try inputs.refuseOverwriting(output: settings.output, db: settings.db)
        if let error = prepareTextReading(settings) {
            diagnostics.write("Error: \(error)\n")
            return .inputError
        }
        // Before the output file exists: from here a first Ctrl-C stops cleanly and a second
        // one removes the temporary file.
        StopSignal.install()
        guard var sinks = ScanSinks(settings, stdout: stdout, progress: progress, diagnostics: diagnostics) else { return .outputError }
        let recordOptions = RecordOptions(ranges: RangesCommand.load(stderr: diagnostics).ranges, prefixes: settings.prefixes)
        var plan = ResumePlan(scanningAll: inputs.walk.inputs)
        if let db = settings.db {
            guard let catalog = sinks.openCatalogue(db) else { return .inputError }
            // Resume: files whose identity matches their row are taken from the catalogue.
            do {
                plan = try ResumePlan(inputs.walk.inputs, catalog: catalog, settings: settings, recordOptions: recordOptions)
            } catch {
                sinks.file?.discard()
                diagnostics.write("Error: \(error)\n")
                return .inputError
            }
            if !settings.quiet {
                for line in plan.unchangedLines { diagnostics.write(line) }
            }
        }
        let delivery = ScanDelivery(settings: settings, plan: plan, sinks: sinks, recordOptions: recordOptions,
                                    showNames: inputs.showNames, progress: progress)
        let batch = BatchScanner(jobs: settings.jobs, makeScanner: scannerFactory(settings, ranges: recordOptions.ranges ?? .bundled))
        let start = ContinuousClock.now
        delivery.deliver(from: batch)
        delivery.finish()
        progress?.clear()
        // The scan's own time, without the wait for the books' answers.
        let seconds = (ContinuousClock.now - start).seconds
        delivery.awaitLookups()
        let status = sinks.commit(delivery.status)
        return end(settings, delivery: delivery, walk: inputs.walk, seconds: seconds, status: status, stderr: stderr)
    }
}

extension ScanCommand {
    /// The lines that end a run on stderr: the interruption, the summary (several files, or
    /// interrupted; with the wait for other writers of the catalogue), the lookups' summary and
    /// what they left undone, and the hint about subfolders left out; `-q` keeps only the first.
    static func endLines(_ settings: Settings, tally: Tally, walk: FolderWalk, seconds: Double, catalog: Catalog?,
                         recorder: CatalogRecorder? = nil, lookup: BackgroundLookup?, showNames: Bool, status: ExitStatus,
                         interrupted: Int32?) -> [String] {
        var lines: [String] = []
        if let signal = interrupted {
            // In the summary's terms: files scanned; those it leaves out (non-images) are neither.
            lines.append("Interrupted by \(signalName(signal)): \(tally.interruptedCounts(inputs: walk.inputs))"
                         + (settings.output.map { ", written to \(escaped($0, json: false))" } ?? ""))
        }
        guard !settings.quiet else { return lines }
        if showNames || interrupted != nil {
            var summary = tally.summary(walk: walk, seconds: seconds)
            if let catalog, catalog.lockWaits > 0 {
                // Several writers: say what waiting for the others cost.
                summary += "; waited \(String(catalog.waitedSeconds, places: 1, wholeFrom: 10)) s for other writers of the catalogue "
                    + "(\(catalog.lockWaits) time\(catalog.lockWaits == 1 ? "" : "s"), \(catalog.retries) retries)"
            }
            if let recorder, recorder.failed {
                // The catalogue failed (a full disk, a lock held too long): what it holds is not
                // what was scanned.
                summary += "; \(recorder.recordedFiles) recorded in the catalogue, \(recorder.unrecordedFiles) not recorded"
            }
            lines.append(summary)
        }
        if let lookup {
            if let line = lookup.summaryLine { lines.append(line) }
            if let line = lookup.unfinishedLine(db: settings.db) { lines.append(line) }
        }
        if interrupted == nil && status == .nothingFound && walk.skippedFolders > 0 {
            // A phone or camera dump keeps its photos in subfolders: say how to reach them, last.
            let folders = walk.skippedFolders == 1 ? "1 subfolder was" : "\(walk.skippedFolders) subfolders were"
            lines.append("Hint: no ISBN found, and \(folders) not scanned: add -r (--recursive) to scan subfolders too")
        }
        return lines
    }

    /// Why printed ISBNs cannot be read here (libtesseract or its English data missing), or `nil`:
    /// `--text` opens Tesseract before the workers start, so that its absence is one error.
    static func textUnreadable() -> TextReadingError? {
        do {
            _ = try PrintedISBNReader()
            return nil
        } catch {
            return error
        }
    }

    /// `<file>: unchanged since it was catalogued on <time>, not scanned again (--rescan to scan it)`:
    /// on stderr for a file named on the command line that `--db` holds with the same size and
    /// modification time.
    static func unchangedLine(_ file: String, scannedAt: String) -> String {
        "\(escaped(file, json: false)): unchanged since it was catalogued on \(scannedAt), not scanned again (--rescan to scan it)\n"
    }

    /// Whether `path` is one of SQLite's companion files of the catalogue `db` (`-journal`,
    /// `-wal`, `-shm`): in the same folder (by device and inode) under the name of `db` plus
    /// that suffix.
    static func isJournal(_ path: [UInt8], of db: String) -> Bool {
        let bytes = path, name = Array(db.utf8)
        func split(_ p: [UInt8]) -> (folder: [UInt8], base: [UInt8]) {
            guard let slash = p.lastIndex(of: UInt8(ascii: "/")) else { return (Array(".".utf8), p) }
            return (slash == 0 ? [UInt8(ascii: "/")] : Array(p[..<slash]), Array(p[(slash + 1)...]))
        }
        let (folder, base) = split(bytes), (dbFolder, dbBase) = split(name)
        guard ["-journal", "-wal", "-shm"].contains(where: { base == dbBase + Array($0.utf8) }) else { return false }
        return Catalog.sameFile(String(decoding: folder, as: UTF8.self), String(decoding: dbFolder, as: UTF8.self))
    }

    /// Makes Tesseract ready for `settings` and says why printed ISBNs cannot be read here
    /// (`--text` without libtesseract or its English data), or `nil`.
    static func prepareTextReading(_ settings: Settings) -> TextReadingError? {
        // Each Tesseract engine runs on one thread: the workers already use the cores.
        if settings.text || settings.effort == .thorough { setenv("OMP_THREAD_LIMIT", "1", 0) }
        return settings.text ? textUnreadable() : nil
    }

    /// Builds one worker's ``FileScanner``: the decoding options, region and policy of
    /// `settings`, and, where text may be read (`--text`, thorough), its text reader, which
    /// also reads the digits printed under a barcode.
    static func scannerFactory(_ settings: Settings, ranges: RangeMessage) -> @Sendable () -> FileScanner {
        let options = settings.decode, scannerOptions = ScannerOptions(addOns: settings.addOns)
        let region = settings.region, policy = DecodingPolicy(effort: settings.effort, accepting: settings.prefixes)
        let textMode = settings.text ? TextReadingMode.always : settings.effort == .thorough ? .whenNoBarcode : .off
        return {
            let scanner = FileScanner(decodeOptions: options, scannerOptions: scannerOptions, region: region, policy: policy)
            // --text: Tesseract was opened before the scan (textUnreadable), so a worker's engine
            // fails only for want of memory (then that worker reads barcodes only). Thorough
            // opens it only for a photo without a barcode.
            if textMode == .always, let reader = try? PrintedISBNReader(ranges: ranges) {
                scanner.textReader = reader
            } else if textMode == .whenNoBarcode {
                scanner.textReader = LazyPrintedISBNReader(ranges: ranges)
            }
            scanner.textMode = textMode
            // The digits printed under a barcode are read, where its bars leave it in doubt, by
            // the same engine and whenever text may be read (--text, thorough).
            scanner.decoder.witness = scanner.textReader as? any PrintedDigitsWitness
            return scanner
        }
    }

    /// Ends a run that delivered with `status`: the ``endLines(_:tally:walk:seconds:catalog:recorder:lookup:showNames:status:interrupted:)``
    /// on stderr, and the exit status, 130 after a signal.
    static func end(_ settings: Settings, delivery: ScanDelivery, walk: FolderWalk, seconds: Double, status: ExitStatus,
                    stderr: TextSink) -> ExitStatus {
        let interrupted = StopSignal.received
        for line in endLines(settings, tally: delivery.tally, walk: walk, seconds: seconds, catalog: delivery.recorder?.catalog,
                             recorder: delivery.recorder, lookup: delivery.lookup, showNames: delivery.writer.showNames, status: status, interrupted: interrupted) {
            stderr.write(line + "\n")
        }
        return interrupted != nil ? .interrupted : status
    }
}
