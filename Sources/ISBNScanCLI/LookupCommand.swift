// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ISBN
import Lookup
import Records

/// `isbnscan lookup ISBN...`: the book behind each ISBN, from Open Library, Google Books and NDL Search.
enum LookupCommand {
    /// The environment variable read for the User-Agent's contact when `--contact` is not given.
    static let contactVariable = "ISBNSCAN_CONTACT"

    /// `--provider`, `--contact`, `--timeout`, `--retries`: what every command that looks books
    /// up accepts (read with ``options(from:environment:)``).
    static let lookupOptions: [OptionSpec] = [
        OptionSpec("provider", value: "list", help: """
            Providers asked, in order, until one knows the book
            (default: openlibrary,google,ndl, with ndl first for 978-4
            ISBNs; a given list is kept as given).
            """),
        OptionSpec("contact", value: "email-or-url", help: """
            Named in the User-Agent, isbnscan/<version> (<contact>), as
            Open Library asks (then 3 requests/s instead of 1)
            (default: $\(contactVariable), else none).
            """),
        OptionSpec("timeout", value: "seconds", help: "Longest wait for one answer, body included (default: 15)."),
        OptionSpec("retries", value: "N", help: "Repeats after HTTP 429, 5xx, or 403 with Retry-After\n(default: 2)."),
    ]

    /// `--lookup` of `scan` and `camera`, followed by ``lookupOptions``.
    static let backgroundOptions: [OptionSpec] = [
        OptionSpec("lookup", help: """
            Look each book up (as 'isbnscan lookup' does) after it is
            printed and recorded, on a thread of its own: no scan waits for
            the network. With --db the answers go into the catalogue (a
            book it has an answer for is not asked again); without, each
            book's line follows on stdout once known: '<isbn13>: <title> /
            <authors>; ... (<provider>)' ('... not known to <providers>'),
            with --json '{"book": {<the object of lookup --json>}}'. Not
            with --csv without --db. Once the scan is done, the answers are
            awaited at most 15 s in all (one request's timeout). Lookups
            that cannot be done (network down, or unanswered by then) are
            said in one Warning line at the end; with --db they stay
            pending for 'isbnscan catalog lookup'. They never change the
            exit status.
            """),
    ] + lookupOptions.filter { $0.long == "provider" || $0.long == "contact" }

    /// The options `--lookup` gives (`nil` without it).
    /// - Throws: ``UsageError`` for a lookup option without `--lookup`, `--lookup --csv` without
    ///   `--db` (CSV rows are codes, not books), or a bad lookup option.
    static func backgroundOptions(from parsed: ParsedArguments, db: String?, csv: Bool) throws(UsageError) -> LookupOptions? {
        guard parsed.flag("lookup") else {
            if let option = backgroundOptions.first(where: { $0.long != "lookup" && parsed.value($0.long) != nil }) {
                throw UsageError("--\(option.long) goes with --lookup")
            }
            return nil
        }
        if csv && db == nil {
            throw UsageError("--lookup with --csv needs --db: the answers go into the catalogue ('catalog export' then has them)")
        }
        return try options(from: parsed, timeouts: false)
    }

    static let spec = CommandSpec(
        name: "lookup",
        abstract: "Look up books by ISBN: title, authors, publisher, year, pages.",
        usage: "isbnscan lookup [--json] [--provider <list>] [--contact <email-or-url>] <isbn>|- ...",
        arguments: [("<isbn>", """
            An ISBN-13 or ISBN-10 (hyphens allowed); 978 and 979. '-' reads
            ISBNs from standard input, one per line; so does giving none when
            standard input is not a terminal. Every ISBN is checked before any
            request: an invalid one is reported and not looked up.
            """)],
        options: [
            OptionSpec("json", help: "One JSON object per ISBN (JSON Lines)."),
        ] + lookupOptions,
        discussion: """
        OUTPUT:
          <isbn13>: <title>[: <subtitle>] / <authors>; <publisher>, <published>; <pages> pages (<source>)
            what the provider knows, in that order
          <isbn13>: not known to <provider>, ...
          <isbn13>: lookup failed: <provider>: <cause>; ...
          A provider that failed while a later one knew the book is named in a
          Warning: line on standard error.

        JSON (--json): one object per ISBN, in the order given:
          "isbn13", "found" (true; false when every provider asked does not
          know the book; null when one could not be asked and none knew it),
          "title", "title_reading" (NDL's katakana reading), "subtitle",
          "authors" (array of names), "by_statement" (as printed),
          "publisher" (several joined with "; "), "published" (as the
          provider writes it: "1988", "March 1988", "2018.7"), "year"
          (integer), "pages", "language", "subjects" (array), "cover" (URL),
          "source" (openlibrary, google or ndl), "url" (the provider's page),
          "error" (null, or why no provider could answer). A field the
          provider does not give is null.

        PROVIDERS AND LIMITS:
          openlibrary  https://openlibrary.org/api/books (up to 20 ISBNs per
                       request); 1 request/s, 3/s with a contact: about 20
                       books/s, 60 with a contact
          google       https://www.googleapis.com/books/v1/volumes; 1 request/s
                       (one ISBN each): about 1 book/s
          ndl          https://ndlsearch.ndl.go.jp/api/opensearch; 1 request/s
                       (one ISBN each): about 1 book/s
          "cover" is the cover's URL: no cover image is ever fetched (Open
          Library allows 100 cover lookups by ISBN per 5 minutes).
          ISBNSCAN_OPENLIBRARY_URL, ISBNSCAN_GOOGLE_BOOKS_URL and ISBNSCAN_NDL_URL
          replace a provider's scheme, host and port (http://127.0.0.1:8080;
          the path stays the provider's), for mirrors. Proxies come from
          http_proxy, https_proxy and no_proxy; TLS certificates are always
          verified; only http and https are followed, at most 5 redirects,
          never from https to http; an answer over 4 MiB is refused, and so
          is XML declaring entities. A title or subtitle keeps 2,000
          characters (Unicode scalars), any other field 10,000, a cut
          ending in "..."; text lines escape control characters. After
          HTTP 429 or 5xx (or 403 with Retry-After) a request is repeated
          after Retry-After, else after 1 s, 2 s, ...; a provider that
          cannot be reached (DNS, connection, timeout), or that would be
          waited on more than 120 s in all, is not asked again in the run.

        EXIT STATUS:
          0  every ISBN was found
          1  an ISBN is invalid, or no provider could answer for a book
             (network, HTTP error, malformed answer)
          2  usage error
          3  standard output could not be written
          4  every provider answered, and at least one book is known to none

        EXAMPLES:
          isbnscan lookup 978-0-306-40615-7
          isbnscan lookup --json --contact me@example.org 9784048930659
          isbnscan scan --csv photos/ | cut -d, -f2 | isbnscan lookup -
        """)

    /// The lookup options `spec`'s options give (`--provider`, `--contact`, `--timeout`,
    /// `--retries`; not `timeouts`: `scan --lookup` and `camera --lookup` keep the defaults, and
    /// `camera --timeout` is the session's), with the contact from `$ISBNSCAN_CONTACT` and the providers' bases from
    /// `ISBNSCAN_*_URL` when set; for every command that looks books up.
    ///
    /// - Throws: ``UsageError`` naming the option or variable and what is wrong with it.
    static func options(from parsed: ParsedArguments, timeouts: Bool = true,
                        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) throws(UsageError) -> LookupOptions {
        var options = LookupOptions()
        if let list = parsed.value("provider") {
            var providers: [Provider] = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard let provider = Provider(rawValue: name) else {
                    throw Suggestion.notOneOf(name, option: "--provider", choices: Provider.allCases.map(\.rawValue))
                }
                if !providers.contains(provider) { providers.append(provider) }
            }
            options.providers = providers
            options.japaneseFirst = false
        }
        let contact = parsed.value("contact") ?? environment(contactVariable)
        if let contact {
            guard !contact.isEmpty, contact.allSatisfy({ $0.isASCII && $0 >= " " && $0 != "(" && $0 != ")" }) else {
                throw UsageError("--contact '\(contact)' must be printable ASCII without parentheses (an e-mail address or URL)")
            }
            options.contact = contact
        }
        if timeouts, let text = parsed.value("timeout") { options.timeout = try CameraCommand.seconds(text, option: "--timeout", allowZero: false) }
        if timeouts, let text = parsed.value("retries") { options.retries = try ArgumentParser.integer(text, option: "--retries", in: 0...10) }
        for provider in Provider.allCases {
            guard let text = environment(provider.baseVariable), !text.isEmpty else { continue }
            switch Provider.base(from: text) {
            case .success(let base): options.bases[provider] = base
            case .failure(let error): throw UsageError("\(provider.baseVariable): \(error.message)")
            }
        }
        return options
    }

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink, standardInput: Int32 = 0) throws(UsageError) -> ExitStatus {
        let options = try options(from: parsed)
        var inputs = parsed.positionals
        if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError("'-' (standard input) can be given only once") }
        if inputs.isEmpty {
            guard isatty(standardInput) == 0 else {
                throw UsageError("no ISBN given (give ISBNs as arguments, or '-' to read them from standard input, one per line)")
            }
            inputs = ["-"]
        }
        var status = ExitStatus.found
        var typed: [String] = []
        for input in inputs {
            guard input == "-" else { typed.append(input); continue }
            let failure = ValidateCommand.forEachLine(of: standardInput) { line in
                let code = line.filter { $0 != "\r" }
                if code.contains(where: { !$0.isWhitespace }) { typed.append(code) }
            }
            if failure != 0 {
                stderr.write("Error: standard input: \(String(cString: strerror(failure)))\n")
                status = .inputError
            }
        }
        if typed.isEmpty && status == .found { throw UsageError("no ISBN given (standard input held none)") }
        // Every ISBN is judged before the first request, so that a typo costs no request.
        var isbns: [ISBN] = []
        for code in typed {
            switch ISBN.judge(typed: code, accepting: .with979) {
            case .accepted(let isbn):
                if !isbns.contains(isbn) { isbns.append(isbn) }
            case .rejected(let rejection):
                stderr.write("Error: \(code): not an ISBN, \(rejection.reason.rawValue): \(rejection.detail)\n")
                status = .inputError
            }
        }
        guard !isbns.isEmpty else { return status }

        let lookup: BookLookup
        do { lookup = try BookLookup(options: options, version: ISBNScanCommand.version) } catch {
            stderr.write("Error: \(error.message)\n")
            return .inputError
        }
        var warned: Set<String> = []
        var anyFailed = false, anyUnknown = false
        let json = JSONLinesFormatter()
        lookup.lookUp(isbns) { record in
            for failure in record.failures where warned.insert(failure).inserted { stderr.write("Warning: \(escaped(failure, json: false))\n") }
            switch record.outcome {
            case .found: break
            case .notFound: anyUnknown = true
            case .failed(let messages):
                anyFailed = true
                for message in messages where warned.insert(message).inserted { stderr.write("Error: \(escaped(message, json: false))\n") }
            }
            stdout.write(parsed.flag("json") ? json.format(record) : record.text + "\n")
        }
        if stdout.writeFailed { return .outputError }
        if status == .inputError || anyFailed { return .inputError }
        return anyUnknown ? .nothingFound : .found
    }
}
