// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Records
import ISBN

/// `isbnscan validate CODE...`: judges ISBNs typed by hand.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check typed ISBNs: 978 prefix, 13 digits, check digit.",
        usage: "isbnscan validate [--json] <code>|- ...",
        arguments: [("<code>", """
            An ISBN-13 or ISBN-10; hyphens and spaces are allowed (quote codes
            with spaces). An ISBN-10 is converted to ISBN-13, then judged.
            '-' reads codes from standard input, one per line (blank lines
            are skipped); so does giving no code when standard input is not
            a terminal: ... | isbnscan validate
            """)],
        options: [OptionSpec("json", help: "One JSON object per code (JSON Lines)."), ArgumentParser.acceptOption],
        discussion: """
        OUTPUT:
          <code>: valid ISBN-13 <isbn13> (ISBN-10 <isbn10>), <hyphenated> (<group> <agency>)
            e.g. 0306406152: valid ISBN-13 9780306406157 (ISBN-10 0306406152),
            978-0-306-40615-7 (978-0 English language); '(979: no ISBN-10)'
            for a 979 ISBN (--accept 979); ', not hyphenatable: <why>' instead
            of the hyphenated form when the range message does not define
            the ISBN's range (see 'isbnscan ranges').
          <code>: invalid, <reason>: <detail>
            reason non-digit, length or check-digit.
          <code>: refused, <reason>: <detail>
            reason prefix or ismn: a well-formed code outside 978 (a 979 ISBN,
            a product code), refused by policy; an ISMN always.
          Reasons: non-digit, length (not 10 or 13 digits, or empty), prefix
          (not 978), ismn (979-0, printed music), check-digit (of the ISBN-13,
          or of the ISBN-10 as typed).
          Hyphens may be ASCII or typographic dashes; a label ISBN, ISBN-13:,
          ISBN10: ... before the code is ignored.

        EXIT STATUS:
          0  every code is a valid 978 ISBN
          1  at least one code is invalid or refused, or standard input could
             not be read
          2  usage error (no code given, unknown option)

        EXAMPLES:
          isbnscan validate 978-0-306-40615-7 0306406152
          cut -f1 books.tsv | isbnscan validate -
        """)

    /// Judges the codes given as arguments, and those on standard input (`standardInput`, one
    /// per line) in place of `-`, or when no code is given and it is not a terminal.
    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink,
                    standardInput: Int32 = 0) throws(UsageError) -> ExitStatus {
        var codes = parsed.positionals
        if codes.filter({ $0 == "-" }).count > 1 { throw UsageError("'-' (standard input) can be given only once") }
        if codes.isEmpty {
            guard isatty(standardInput) == 0 else {
                throw UsageError("no code given (give codes as arguments, or '-' to read them from standard input, one per line)")
            }
            codes = ["-"]
        }
        var allValid = true
        var judged = 0
        let prefixes = try ArgumentParser.prefixes(from: parsed)
        let ranges = RangesCommand.load(stderr: stderr).ranges
        let text = TextFormatter(options: .init()), jsonLines = JSONLinesFormatter()
        /// Writes the verdict on one typed code; returns whether it is a valid ISBN.
        func judge(_ input: String) -> Bool {
            let record = ValidationRecord(input: input, verdict: ISBN.judge(typed: input, accepting: prefixes), ranges: ranges)
            stdout.write(parsed.flag("json") ? jsonLines.format(record) : text.format(record))
            return record.valid
        }
        for input in codes {
            if input != "-" {
                allValid = judge(input) && allValid
                judged += 1
                continue
            }
            let failure = forEachLine(of: standardInput) { line in
                let code = line.trimmingWhitespace
                guard !code.isEmpty else { return }
                allValid = judge(code) && allValid
                judged += 1
            }
            if failure != 0 {
                stderr.write("Error: standard input: \(String(cString: strerror(failure)))\n")
                allValid = false
            }
        }
        if judged == 0 && allValid { throw UsageError("no code given (standard input held none)") }
        return allValid ? .success : .inputError
    }

    /// Calls `body` with each line read from `fd` with read(2) as it arrives (without its `\n`;
    /// bytes that are not UTF-8 become U+FFFD), the last one also without a final newline.
    /// Returns 0 at end of file, or the `errno` of a failed read.
    static func forEachLine(of fd: Int32, _ body: (String) -> Void) -> Int32 {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                pending += chunk[start..<index]
                body(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending += chunk[start..<count]
        }
        if !pending.isEmpty { body(String(decoding: pending, as: UTF8.self)) }
        return 0
    }
}

private extension String {
    /// Without leading and trailing spaces, tabs and carriage returns (CRLF lines).
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
