import ISBN

/// `isbnscan validate CODE...`: judges ISBNs typed by hand.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check typed ISBNs: 978 prefix, 13 digits, check digit.",
        usage: "isbnscan validate [--json] <code> ...",
        arguments: [("<code>", "An ISBN-13 or ISBN-10; hyphens and spaces are allowed (quote codes\nwith spaces). An ISBN-10 is converted to ISBN-13, then judged.")],
        options: [OptionSpec("json", help: "One JSON object per code (JSON Lines).")],
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
        for input in parsed.positionals {
            let verdict = ISBN.judge(typed: input)
            if parsed.flag("json") {
                switch verdict {
                case .accepted(let isbn):
                    stdout.write(JSON.object(["input": JSON.string(input), "valid": "true", "isbn13": JSON.string(isbn.isbn13),
                                              "isbn10": JSON.string(isbn.isbn10), "reason": "null", "detail": "null"]) + "\n")
                case .rejected(let rejection):
                    stdout.write(JSON.object(["input": JSON.string(input), "valid": "false", "isbn13": "null", "isbn10": "null",
                                              "reason": JSON.string(rejection.reason.rawValue),
                                              "detail": JSON.string(rejection.detail)]) + "\n")
                }
            } else {
                switch verdict {
                case .accepted(let isbn):
                    stdout.write("\(escaped(input, json: false)): valid ISBN-13 \(isbn.isbn13) (ISBN-10 \(isbn.isbn10))\n")
                case .rejected(let rejection):
                    // A 979 ISBN is a real ISBN that this tool refuses by policy, not an invalid one.
                    let line = "\(input): \(rejection.reason == .prefix ? "refused" : "invalid"), \(rejection)"
                    stdout.write(escaped(line, json: false) + "\n")
                }
            }
            if verdict.isbn == nil { allValid = false }
        }
        return allValid ? .found : .inputError
    }
}
