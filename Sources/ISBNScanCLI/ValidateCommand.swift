import Records
import ISBN

/// `isbnscan validate CODE...`: judges ISBNs typed by hand.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check typed ISBNs: 978 prefix, 13 digits, check digit.",
        usage: "isbnscan validate [--json] <code> ...",
        arguments: [("<code>", "An ISBN-13 or ISBN-10; hyphens and spaces are allowed (quote codes\nwith spaces). An ISBN-10 is converted to ISBN-13, then judged.")],
        options: [OptionSpec("json", help: "One JSON object per code (JSON Lines)."), ArgumentParser.acceptOption],
        discussion: """
        OUTPUT:
          <code>: valid ISBN-13 <isbn13> (ISBN-10 <isbn10>)
          <code>: invalid, <reason>: <detail>
          <code>: refused, prefix: <detail>   (a well-formed code outside 978,
                                               e.g. a 979 ISBN: refused by policy)
          Reasons: non-digit, length (not 13 digits), prefix (not 978), check-digit.
          Hyphens may be ASCII or typographic dashes; a label ISBN, ISBN-13:,
          ISBN10: ... before the code is ignored.

        EXIT STATUS:
          0  every code is a valid 978 ISBN
          1  at least one code is invalid or refused
          2  usage error (no code given, unknown option)

        EXAMPLES:
          isbnscan validate 978-0-306-40615-7 0306406152
        """)

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink) throws(UsageError) -> ExitStatus {
        guard !parsed.positionals.isEmpty else { throw UsageError("no code given") }
        var allValid = true
        let text = TextFormatter(options: .init()), jsonLines = JSONLinesFormatter()
        let prefixes = try ArgumentParser.prefixes(from: parsed)
        let ranges = RangesCommand.load(stderr: stderr).ranges
        for input in parsed.positionals {
            let record = ValidationRecord(input: input, verdict: ISBN.judge(typed: input, accepting: prefixes), ranges: ranges)
            stdout.write(parsed.flag("json") ? jsonLines.format(record) : text.format(record))
            if !record.valid { allValid = false }
        }
        return allValid ? .found : .inputError
    }
}
