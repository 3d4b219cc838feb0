import Imaging
import ISBN
import Scanning

/// `isbnscan scan FILE...`: reads the barcodes in image files.
enum ScanCommand {
    static let spec = CommandSpec(
        name: "scan",
        abstract: "Read the book barcodes (EAN-13 ISBNs) in image files.",
        usage: "isbnscan scan [--roi x,y,w,h | --roi-avfoundation x,y,w,h] [--effort level] [--all] [--addons] [--json] [--max-pixels n] [-q] <file> ...",
        arguments: [("<file>", "PNG, JPEG, PGM or PPM image; the format is read from the file's\nfirst bytes, not its name. EXIF orientation is applied.\n'-' reads one image from standard input.")],
        options: [
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
            OptionSpec("all", help: "Print every EAN-13/EAN-8 read, each with its verdict,\nnot only accepted ISBNs."),
            OptionSpec("addons", help: "Also read EAN-5/EAN-2 add-ons (the price code beside an\nISBN) and print them after the ISBN."),
            OptionSpec("json", help: "One JSON object per file (JSON Lines), with every symbol,\nits position and the verdicts."),
            OptionSpec("effort", value: "level", help: """
                How hard to try when a first scan finds nothing: fast (one
                zbar scan), normal (tone curves, thresholding, inversion,
                scaling, rotations; the default) or thorough (more angles,
                upscaling for tiny barcodes).
                """),
            OptionSpec("max-pixels", value: "n", help: "Refuse images larger than n pixels before decoding\n(default: 120000000)."),
            OptionSpec("quiet", short: "q", help: "No warnings or summary on stderr (errors still appear)."),
        ],
        discussion: """
        OUTPUT:
          One accepted ISBN-13 per line; '<file>: <isbn13>' when several files
          are given. With --addons: '<isbn13> <add-on>'. With --all, one line per
          code: '<type> <digits> accepted ISBN-10 <isbn10>' or
          '<type> <digits> rejected <reason>: <detail>'. Without --all,
          refused codes are reported on stderr as warnings instead.
          A code is accepted only if it has 13 digits, starts with 978 and has
          the right check digit. Reasons for refusal: length, prefix,
          check-digit, non-digit, ambiguous (one barcode read two ways).

        JSON (--json), one line per file:
          {"file", "width", "height", "symbols": [{"type", "data", "addon",
           "quality", "orientation", "polygon": [[x,y] x4, clockwise from
           top-left, pixels of the upright image], "pass" (which decoding
           pass read it: full, smooth, invert, rotate+30...), "verdict",
           "reason"}],
           "isbns": [{"isbn13", "isbn10", "addon"}],
           "rejected": [{"type", "data", "reason", "detail"}], "error"}

        EXIT STATUS:
          0  an ISBN was found (with --all: any EAN symbol)
          1  an input could not be read (takes precedence)
          2  usage error
          4  every input was read, and no ISBN was found

        EXAMPLES:
          isbnscan scan cover.jpg
          isbnscan scan --all --json shelf/*.jpg
          isbnscan scan --roi 0.05,0.4,0.9,0.15 --addons back-cover.png
        """)

    struct Settings {
        var region = RegionOfInterest.full
        var all = false
        var addOns = false
        var json = false
        var quiet = false
        var decode = DecodeOptions()
        var effort = Effort.normal
    }

    static func settings(from parsed: ParsedArguments) throws(UsageError) -> Settings {
        var settings = Settings()
        if let region = try region(from: parsed) { settings.region = region }
        if let text = parsed.value("max-pixels") {
            settings.decode.maxPixels = try ArgumentParser.integer(text, option: "--max-pixels", in: 1...(1 << 40))
        }
        if let text = parsed.value("effort") {
            guard let effort = Effort(rawValue: text) else {
                throw UsageError("--effort '\(text)' is not one of fast, normal, thorough")
            }
            settings.effort = effort
        }
        settings.all = parsed.flag("all")
        settings.addOns = parsed.flag("addons")
        settings.json = parsed.flag("json")
        settings.quiet = parsed.flag("quiet")
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

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink) throws(UsageError) -> ExitStatus {
        let settings = try settings(from: parsed)
        let files = parsed.positionals
        guard !files.isEmpty else { throw UsageError("no image file given") }
        let scanner = FileScanner(decodeOptions: settings.decode, scannerOptions: ScannerOptions(addOns: settings.addOns),
                                  region: settings.region, effort: settings.effort)
        var tally = Tally()
        let showNames = files.count > 1
        for path in files {
            let result = scanner.scanFile(path: path)
            tally.add(result, all: settings.all)
            ResultPrinter.print(result, settings: settings, showName: showNames, stdout: stdout, stderr: stderr)
        }
        if files.count > 1 && !settings.quiet { stderr.write(tally.summary + "\n") }
        return tally.exitStatus
    }
}

/// Counts over a run: what the summary line says and which exit status results.
struct Tally {
    var files = 0
    var withISBN = 0
    var withoutCode = 0
    var rejectedCodes = 0
    var errors = 0
    var found = false

    mutating func add(_ result: FileScanResult, all: Bool) {
        files += 1
        guard let report = result.report else { errors += 1; return }
        let hasISBN = report.codes.contains { $0.verdict.isbn != nil }
        if hasISBN { withISBN += 1 }
        if report.codes.isEmpty { withoutCode += 1 }
        rejectedCodes += report.rejected.count
        if hasISBN || (all && !report.codes.isEmpty) { found = true }
    }

    var exitStatus: ExitStatus { errors > 0 ? .inputError : (found ? .found : .nothingFound) }

    var summary: String {
        "scanned \(files) file\(files == 1 ? "" : "s"): \(withISBN) with an ISBN, \(withoutCode) without any barcode, "
            + "\(rejectedCodes) code\(rejectedCodes == 1 ? "" : "s") refused, \(errors) unreadable"
    }
}

/// Formats one file's result as text or JSON.
enum ResultPrinter {
    static func print(_ result: FileScanResult, settings: ScanCommand.Settings, showName: Bool,
                      stdout: TextSink, stderr: TextSink) {
        if let error = result.error { stderr.write("Error: \(escaped(error.path)): \(error.cause)\n") }
        if settings.json {
            stdout.write(json(result) + "\n")
            return
        }
        guard let report = result.report else { return }
        let prefix = showName ? "\(escaped(result.path)): " : ""
        if settings.all {
            for code in report.codes { stdout.write(prefix + describe(code) + "\n") }
        } else {
            for code in report.codes {
                guard let isbn = code.verdict.isbn else { continue }
                let addOn = settings.addOns ? code.symbol.addOn.map { " \($0)" } ?? "" : ""
                stdout.write("\(prefix)\(isbn.isbn13)\(addOn)\n")
            }
        }
        if !settings.quiet {
            if !settings.all {
                for code in report.rejected {
                    stderr.write("Warning: \(escaped(result.path)): \(code.symbol.symbology.rawValue) \(code.symbol.data) refused, \(code.verdict.rejection!)\n")
                }
            }
            if report.codes.isEmpty {
                let place = settings.region.isFull ? "" : " in the region of interest"
                stderr.write("Warning: \(escaped(result.path)): no barcode found\(place)\n")
            }
        }
    }

    /// A path for one-line text output (control characters escaped).
    static func escaped(_ path: String) -> String { ISBNScanCLI.escaped(path, json: false) }

    static func describe(_ code: ReadCode) -> String {
        let symbol = code.symbol
        var line = "\(symbol.symbology.rawValue) \(symbol.data)"
        switch code.verdict {
        case .accepted(let isbn): line += " accepted ISBN-10 \(isbn.isbn10)"
        case .rejected(let rejection): line += " rejected \(rejection)"
        }
        if let addOn = symbol.addOn { line += " add-on \(addOn)" }
        return line
    }

    static func json(_ result: FileScanResult) -> String {
        guard let report = result.report else {
            return JSON.object(["file": JSON.string(result.path), "width": "null", "height": "null", "symbols": "[]",
                                "isbns": "[]", "rejected": "[]", "error": JSON.optional(result.error?.cause)])
        }
        return JSON.object(["file": JSON.string(result.path),
                            "width": result.imageSize.map { String($0.width) } ?? "null",
                            "height": result.imageSize.map { String($0.height) } ?? "null",
                            "symbols": symbolsJSON(report), "isbns": isbnsJSON(report.accepted),
                            "rejected": rejectedJSON(report), "error": "null"])
    }

    /// The `symbols` array: every EAN symbol with position, pass and verdict.
    static func symbolsJSON(_ report: ScanReport) -> String {
        JSON.array(report.codes.map { code -> String in
            let s = code.symbol
            let polygon = JSON.array(s.polygon.map { "[\($0.x), \($0.y)]" })
            return JSON.object(["type": JSON.string(s.symbology.rawValue), "data": JSON.string(s.data),
                                "addon": JSON.optional(s.addOn), "quality": String(s.quality),
                                "orientation": s.orientation.map(String.init) ?? "null", "polygon": polygon,
                                "pass": JSON.string(s.pass),
                                "verdict": JSON.string(code.verdict.isbn == nil ? "rejected" : "accepted"),
                                "reason": JSON.optional(code.verdict.rejection?.reason.rawValue)])
        })
    }

    /// The `isbns` array for accepted codes.
    static func isbnsJSON(_ accepted: [ReadCode]) -> String {
        JSON.array(accepted.compactMap { code -> String? in
            guard let isbn = code.verdict.isbn else { return nil }
            return JSON.object(["isbn13": JSON.string(isbn.isbn13), "isbn10": JSON.string(isbn.isbn10),
                                "addon": JSON.optional(code.symbol.addOn)])
        })
    }

    /// The `rejected` array: refused codes with reason and detail.
    static func rejectedJSON(_ report: ScanReport) -> String {
        JSON.array(report.rejected.map { code in
            JSON.object(["type": JSON.string(code.symbol.symbology.rawValue), "data": JSON.string(code.symbol.data),
                         "reason": JSON.string(code.verdict.rejection!.reason.rawValue),
                         "detail": JSON.string(code.verdict.rejection!.detail)])
        })
    }
}
