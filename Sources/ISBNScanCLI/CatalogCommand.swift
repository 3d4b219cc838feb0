// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Catalog
import ISBN
import Lookup
import Records

/// `isbnscan catalog list|export|stats|lookup|merge|remove`: the books a catalogue (`--db`) holds.
enum CatalogCommand {
    static let spec = CommandSpec(
        name: "catalog",
        abstract: "List, export, count, look up, merge or correct a catalogue made with --db.",
        usage: "isbnscan catalog <list|export|stats|lookup|merge|remove> --db <file> [options] [arguments]",
        arguments: [("<action>", """
            list              the books: ISBN, count, first and last seen, first file
            export            the books as --format csv, jsonl, isbn-list, goodreads,
                              libib, bibtex, ris or csl-json
            stats             counts of books, sightings, files and refused codes
            lookup            look up the books without metadata (title, authors...)
            merge <db>...     add other catalogues to --db, without duplicates
            remove <isbn>...  forget an ISBN scanned by mistake
            """)],
        options: [
            OptionSpec("db", value: "file", help: "The catalogue (made by 'isbnscan scan --db' or 'camera --db')."),
            OptionSpec("format", value: "f", help: """
                export: csv (RFC 4180, with a header row), jsonl (one JSON
                object per book), isbn-list (one ISBN-13 per line: what
                LibraryThing and calibre import), goodreads (Goodreads' CSV),
                libib (Libib's CSV), bibtex, ris or csl-json (a JSON array of
                CSL items). Default csv.
                """),
            OptionSpec("output", short: "o", value: "file", help: """
                export: write to this file instead of standard output. It
                appears complete or not at all: written to a temporary file
                beside it and renamed at the end. Refused (status 2) when it
                is the --db catalogue or one of its journal files (-wal,
                -shm, -journal). '-' is standard output.
                """),
            OptionSpec("json", help: "list, stats and lookup: JSON Lines instead of text (export:\nuse --format jsonl; --json there is a usage error)."),
            OptionSpec("refresh", help: "lookup: look up every book again, not only those without an\nanswer in the catalogue."),
        ] + LookupCommand.lookupOptions.map { OptionSpec($0.long, value: $0.valueName, help: "lookup: " + $0.help) },
        discussion: """
        OUTPUT:
          list: '<isbn13> <hyphenated> <group> <count> <first seen> <last seen>
          <first file or device>[ | <title>[: <subtitle>] / <authors>][; C-code
          <c-code> <meaning>, <price>]' per book, in order of first sighting;
          times in UTC (ISO 8601); '-' for an ISBN that cannot be hyphenated;
          the title from the lookup cache ('catalog lookup', --lookup), when a
          provider knew the book; the C-code and price of the Japanese book
          code (second row) last read with it, when one was.
          export --format csv: isbn13,isbn10,hyphenated,group,agency,count,
          first_seen,last_seen,first_source,addon,price (the add-on's, else
          the Japanese book code's: JPY 3200),title,authors (joined with
          '; '),publisher,year,c_code; the ISBN-13 and ISBN-10
          written as ="9780306406157" so that a spreadsheet keeps them as
          text (leading zeros included); a text field that starts with =,
          +, -, @, a tab or CR gets a leading '. jsonl: {"isbn13",
          "isbn10", "hyphenated", "group": {"prefix", "agency"}, "addon",
          "price", "jp_book_code" (as in 'scan --json', or null), "count",
          "first_seen", "last_seen", "first_source",
          "book"} with "book" null (not looked up) or {"found", the keys of
          'lookup --json' from "title" to "url", "fetched_at"}.
          isbn-list: one ISBN-13 per line.
          goodreads: Title,Author,Additional Authors,ISBN,ISBN13,Publisher,
          Number of Pages,Year Published,Date Added (first seen, YYYY/MM/DD),
          Bookshelves,Exclusive Shelf (left empty), the ISBNs as ="...".
          libib: item_type (book),title,creators,ean_isbn13,upc_isbn10,
          description,publisher,publish_date (YYYY-MM-DD, else the year),
          tags (subjects),length (pages),added (first seen),copies (1).
          bibtex: @book{isbn<isbn13>, ...} with title, author (joined with
          'and'; a name with the word 'and' in it braced whole), publisher,
          year, pagetotal, isbn, language, url; braces in the text written
          {\textbraceleft} and {\textbraceright} (%7B and %7D in the url),
          so that every field ends where it should. ris: TY, TI, AU, PB,
          PY, DA, SN, LA, KW, UR, ER; control characters and line
          separators in the text written as spaces. csl-json: [{"id", "type": "book", "title",
          "author": [{"literal"}], "publisher", "issued", "number-of-pages",
          "language", "ISBN", "URL"}]. A book not looked up (or known to no
          provider) is written with what is known: its ISBNs (and dates).
          export -o FILE writes the same bytes to FILE: into a temporary
          file beside it, renamed over FILE once complete, so FILE is never
          half-written; a run that fails or is interrupted leaves FILE as it
          was ('Error: <file>: cannot write the output file: <cause>').
          Naming the --db catalogue (under any name) is a usage error:
          'Error: --output <file> is the --db catalogue <db>; refusing to
          overwrite it'; naming one of its journal files too ('Error:
          --output <file> is <db>-wal, a journal file of the --db catalogue
          <db>; refusing to overwrite it').
          merge: a file recorded in both keeps its later scan, with that
          scan's sightings only (the same folder scanned into both counts
          each book once); a camera sighting or refusal recorded in both is
          kept once; a book's lookup answer is taken where --db has none or
          an older one. The catalogues merged in are only read, and all of
          them are opened before --db: one that is no catalogue fails the
          merge (exit 1) with nothing merged and no new --db left behind.
          merge waits for other writers of --db (see scan --db). On stderr
          per catalogue: '<db>: added <n> files, <n> sightings, <n> refused
          codes, <n> book lookups'. A code in it that is no valid ISBN (a
          file edited by hand or by another program) is not merged, its
          sightings and lookup answer left out: 'Warning: <db>: '<code>' is
          no valid ISBN (<reason>): <n> sightings not merged' (20 named,
          then how many more).
          lookup: '<isbn13>: <title> / <authors>; ... (<provider>)' per book
          answered, as 'isbnscan lookup' prints it (--json: its objects), each
          answer stored in the catalogue as it comes (the provider, the time,
          the fields and the provider's whole answer); a book known to no
          provider is an answer too. Asked: the books without an answer, and
          those still pending (--refresh: every book). Provider failures are
          said once each on stderr ('Error: <provider>: <cause>'), and a
          provider that cannot be reached is not asked again in the run; the
          books they leave without an answer are not printed: they stay
          pending, any earlier answer kept, and the next 'catalog lookup'
          goes on with them. Last, on stderr:
          'catalog lookup: <n> books looked up: <n> found, <n> known to no
          provider, <n> failed[; <n> pending in <db> ...]'.
          remove: '<isbn13>: removed <n> sightings'; the files stay recorded.
          An ISBN that is in no sighting: 'Warning: <isbn>: not in the
          catalogue'. An argument that is no valid ISBN (978 or 979, ISBN-13
          or ISBN-10, as validate judges it) is a usage error naming the
          reason, and nothing is removed: 'Error: <arg>: not a valid ISBN
          (<reason>: <detail>); nothing removed'.
          list, export and stats open the catalogue read-only: they never
          create, migrate or change it. lookup, merge and remove migrate an
          older --db (after a 'Note:' on stderr).
          A --db file (or a file to merge) that is not an SQLite database:
          'Error: <file>: not an isbnscan catalogue (not an SQLite database)';
          another program's SQLite file: '... (an SQLite database of another
          program); left as it is'; an empty file (list, export, stats):
          'Error: <file>: an empty catalogue: nothing is recorded in it
          yet' (while another isbnscan is creating it, they wait for it).

        EXIT STATUS:
          0  done (list, export: at least one book; lookup: every book
             asked was found, or none needed asking)
          1  a catalogue could not be opened, read or written; lookup: a
             provider failed and books stay pending
          2  usage error (also: merging the --db catalogue into itself;
             remove: an argument that is no valid ISBN)
          3  standard output or the export -o file could not be written
          4  the catalogue holds no book; remove: the ISBN was not in it;
             lookup: a book is known to no provider
          130 lookup: interrupted (the answers so far are stored); export
             -o: interrupted (the file left as it was)

        EXAMPLES:
          isbnscan catalog list --db books.db
          isbnscan catalog lookup --db books.db --contact me@example.org
          isbnscan catalog export --db books.db --format isbn-list > librarything.txt
          isbnscan catalog export --db books.db --format goodreads -o goodreads.csv
          isbnscan catalog merge --db books.db laptop.db desk.db
          isbnscan catalog remove --db books.db 978-0-306-40615-7
        """)

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink) throws(UsageError) -> ExitStatus {
        guard let action = parsed.positionals.first else { throw UsageError("no action given (\(actions.joined(separator: ", ")))") }
        let arguments = Array(parsed.positionals.dropFirst())
        guard actions.contains(action) else {
            throw UsageError(Suggestion.appended(to: "unknown action '\(action)' (\(actions.joined(separator: ", ")))",
                                                 typed: action, in: actions))
        }
        guard let db = parsed.value("db"), !db.isEmpty else {
            // `catalog list books.db`: the catalogue given where an argument goes.
            let file = action == "remove" ? nil : arguments.first
            throw UsageError("--db <file> is required" + (file.map { " (did you mean '--db \(escaped($0, json: false))'?)" } ?? ""))
        }
        if action != "export" && parsed.value("format") != nil { throw UsageError("--format goes with export") }
        if !["list", "stats", "lookup"].contains(action) && parsed.flag("json") {
            throw UsageError("--json goes with list, stats and lookup" + (action == "export" ? " (export: --format jsonl)" : ""))
        }
        if action != "lookup", let option = (["refresh"] + LookupCommand.lookupOptions.map(\.long)).first(where: {
            parsed.flag($0) || parsed.value($0) != nil
        }) {
            throw UsageError("--\(option) goes with lookup")
        }
        let lookupOptions = action == "lookup" ? try LookupCommand.options(from: parsed) : LookupOptions()
        if (action == "merge" || action == "remove") != !arguments.isEmpty {
            throw arguments.isEmpty ? UsageError("\(action) needs \(action == "merge" ? "a catalogue file" : "an ISBN")")
                                    : UsageError("unexpected argument '\(arguments[0])'")
        }
        let format = parsed.value("format") ?? "csv"
        guard BookExport.formats.contains(format) else {
            throw Suggestion.notOneOf(format, option: "--format", choices: BookExport.formats)
        }
        // export -o FILE ('-': standard output).
        var output: String?
        if let file = parsed.value("output") {
            guard action == "export" else { throw UsageError("--output goes with export") }
            guard !file.isEmpty else { throw UsageError("--output needs a file name") }
            if file != "-" {
                try ScanInputs.refuseOverwriting(catalogue: db, with: file)
                output = file
            }
        }
        // remove: every argument must be an ISBN (978 or 979, as typed to validate); a typo removes nothing.
        var toRemove: [(typed: String, isbn13: String)] = []
        if action == "remove" {
            for typed in arguments {
                switch ISBN.judge(typed: typed, accepting: .with979) {
                case .accepted(let isbn): toRemove.append((typed, isbn.isbn13))
                case .rejected(let rejection):
                    throw UsageError("\(escaped(typed, json: false)): not a valid ISBN (\(rejection)); nothing removed")
                }
            }
        }
        // Attaching the --db file to itself would only wait for its own lock ("database is locked").
        if action == "merge", let itself = arguments.first(where: { Catalog.sameFile(db, $0) }) {
            throw UsageError("\(escaped(itself, json: false)) is the --db catalogue itself (the same file); a catalogue cannot be merged into itself")
        }
        // Reading never creates a catalogue; merge creates its target.
        if action != "merge" && access(db, F_OK) != 0 {
            stderr.write("Error: \(escaped(db, json: false)): no such catalogue\n")
            return .inputError
        }
        // The catalogues merged in are only read: a missing one is an error, never created.
        if action == "merge", let missing = arguments.first(where: { access($0, F_OK) != 0 }) {
            stderr.write("Error: \(escaped(missing, json: false)): no such catalogue\n")
            return .inputError
        }
        do {
            // Every catalogue merged in is opened (read-only, as merge reads it) before --db, which
            // merge may create: a source that is no catalogue fails the command before any file is made.
            if action == "merge" {
                for other in arguments { _ = try Catalog(path: other, access: .read) }
            }
            // list, export and stats only read: the file is opened read-only and never migrated.
            let writes = action == "merge" || action == "remove" || action == "lookup"
            let catalog = try Catalog(path: db, access: writes ? .write : .read) { stderr.write("Note: \($0)\n") }
            let ranges = RangesCommand.load(stderr: stderr).ranges
            switch action {
            case "list", "export":
                let books = try catalog.books()
                let lookups = try catalog.cachedLookups()
                // Before the temporary file exists: a signal's default action would leave it, so
                // a first Ctrl-C stops the export (which removes it) and a second one removes it.
                if output != nil { StopSignal.install() }
                let file: AtomicFileSink?
                do { file = try output.map { (path) throws(OutputError) in try AtomicFileSink(path: path) } } catch {
                    stderr.write("Error: \(error)\n")
                    return .outputError
                }
                let out: TextSink = file ?? stdout
                if action == "export" { out.write(format == "csv" ? csvHeader : BookExport.header(format)) }
                for (index, book) in books.enumerated() {
                    if file != nil, StopSignal.received != nil { break }
                    let record = BookRecord(book, ranges: ranges, lookup: lookups[book.isbn13])
                    out.write(line(record, action: action, format: format, json: parsed.flag("json"), index: index))
                }
                if let signal = StopSignal.received, let file {
                    file.discard()
                    stderr.write("catalog export: interrupted by \(signalName(signal)); \(escaped(file.path, json: false)) left as it was\n")
                    return .interrupted
                }
                if action == "export" { out.write(BookExport.footer(format, count: books.count)) }
                do { try file?.commit() } catch {
                    stderr.write("Error: \(error)\n")
                    return .outputError
                }
                if stdout.writeFailed { return .outputError }
                return books.isEmpty ? .nothingFound : .found
            case "lookup":
                return try CatalogLookup.run(catalog, db: db, options: lookupOptions, refresh: parsed.flag("refresh"),
                                             json: parsed.flag("json"), stdout: stdout, stderr: stderr)
            case "stats":
                let stats = try catalog.statistics()
                stdout.write(parsed.flag("json") ? JSONLinesFormatter().format(StatsRecord(stats)) : text(stats))
                return stats.books == 0 ? .nothingFound : .found
            case "merge":
                for other in arguments {
                    let added = try catalog.merge(from: other)
                    for code in added.refused.prefix(Self.refusedCodesNamed) {
                        // A code of any length: the first 20 characters and how many there are.
                        let shown = code.isbn13.count > 40 ? "\(code.isbn13.prefix(20))… (\(code.isbn13.count) characters)" : code.isbn13
                        stderr.write("Warning: \(escaped(other, json: false)): '\(escaped(shown, json: false))' is no valid ISBN "
                                     + "(\(code.reason)): \(code.sightings) sighting\(code.sightings == 1 ? "" : "s") not merged\n")
                    }
                    if added.refused.count > Self.refusedCodesNamed {
                        stderr.write("Warning: \(escaped(other, json: false)): \(added.refused.count - Self.refusedCodesNamed) more codes "
                                     + "that are no valid ISBN not merged\n")
                    }
                    stderr.write("\(escaped(other, json: false)): added \(added.files) file\(added.files == 1 ? "" : "s"), "
                                 + "\(added.sightings) sighting\(added.sightings == 1 ? "" : "s"), "
                                 + "\(added.refusals) refused code\(added.refusals == 1 ? "" : "s"), "
                                 + "\(added.lookups) book lookup\(added.lookups == 1 ? "" : "s")\n")
                }
                return .found
            default:
                var removedAny = false
                for (typed, isbn13) in toRemove {
                    let removed = try catalog.remove(isbn13: isbn13)
                    if removed > 0 {
                        removedAny = true
                        stdout.write("\(isbn13): removed \(removed) sighting\(removed == 1 ? "" : "s")\n")
                    } else {
                        stderr.write("Warning: \(escaped(typed, json: false)): not in the catalogue\n")
                    }
                }
                return removedAny ? .found : .nothingFound
            }
        } catch {
            stderr.write("Error: \(error)\n")
            return .inputError
        }
    }

    static let actions = ["list", "export", "stats", "lookup", "merge", "remove"]

    static let csvHeader = CSV.row(["isbn13", "isbn10", "hyphenated", "group", "agency", "count", "first_seen", "last_seen",
                                    "first_source", "addon", "price", "title", "authors", "publisher", "year", "c_code"])

    /// One book as `list` (text or JSON) or `export` in `format` prints it.
    static func line(_ record: BookRecord, action: String, format: String, json: Bool, index: Int = 0) -> String {
        let book = record.book, isbn = record.isbn
        if action == "list" {
            // The title last, after ' | ': a path may hold spaces, never a control character.
            return json ? JSONLinesFormatter().format(record)
                        : "\(book.isbn13) \(isbn.hyphenated ?? "-") \(isbn.group?.prefix ?? "-") \(book.count) \(book.firstSeen) "
                          + "\(book.lastSeen) \(escaped(book.firstSource, json: false))"
                          + (record.titleLine.map { " | " + escaped($0, json: false) } ?? "") + "\n"
        }
        switch format {
        case "isbn-list": return book.isbn13 + "\n"
        case "jsonl": return JSONLinesFormatter().format(record)
        case "csv": break
        default: return BookExport.entry(record, format: format, index: index)
        }
        do {
            let m = record.metadata
            // ="…" makes LibreOffice Calc and Excel keep the digits as text (an ISBN-10's leading zero
            // is lost otherwise); checked with LibreOffice Calc 7.4 (see README).
            return CSV.row([spreadsheetText(book.isbn13), book.isbn10.map(spreadsheetText) ?? "", isbn.hyphenated ?? "", isbn.group?.prefix ?? "", isbn.group?.agency ?? "",
                            String(book.count), book.firstSeen, book.lastSeen, CSV.text(book.firstSource), book.addOn ?? "",
                            isbn.price?.description ?? isbn.jpBookCode?.csvPrice ?? "", CSV.text(BookExport.fullTitle(m) ?? ""),
                            CSV.text(m?.authors?.joined(separator: "; ") ?? ""), CSV.text(m?.publisher ?? ""),
                            m?.year.map(String.init) ?? "", isbn.jpBookCode?.cCode ?? ""])
        }
    }

    /// `="digits"`: a formula whose value is the text, so a spreadsheet opening the CSV keeps the digits.
    /// The codes that are no ISBN a merge names one by one; the rest are counted.
    static let refusedCodesNamed = 20

    static func spreadsheetText(_ digits: String) -> String { "=\"\(digits)\"" }

    static func text(_ stats: Catalog.Statistics) -> String {
        let files = stats.files.values.reduce(0, +)
        var out = "books: \(stats.books) (\(stats.sightings) sightings, \(stats.cameraSightings) from a camera)\n"
        out += "files: \(files) (\(stats.files["isbn"] ?? 0) with an ISBN, \(stats.files["refused"] ?? 0) with refused codes only, "
            + "\(stats.files["no-barcode"] ?? 0) without any barcode, \(stats.files["error"] ?? 0) unreadable)\n"
        let refused = stats.refusals.values.reduce(0, +)
        out += "refused codes: \(refused)"
        if refused > 0 {
            out += " (" + stats.refusals.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ") + ")"
        }
        out += "\n"
        if let first = stats.firstSeen, let last = stats.lastSeen { out += "first seen \(first), last seen \(last)\n" }
        return out
    }
}
