// SPDX-License-Identifier: Apache-2.0
/// One option of a command: `--long`, optionally `-s`, a flag or taking a value.
struct OptionSpec: Sendable {
    /// Long name without dashes, kebab-case (`max-pixels`).
    let long: String
    /// Single-letter short form, or `nil`.
    let short: Character?
    /// The value's placeholder (`N`, `x,y,w,h`) when the option takes one; `nil` for a flag.
    let valueName: String?
    /// One line of help; defaults are stated inline.
    let help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
    }

    var takesValue: Bool { valueName != nil }
}

/// A subcommand's interface: what `--help` prints and what the parser accepts.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    let usage: String
    let arguments: [(name: String, help: String)]
    let options: [OptionSpec]
    let discussion: String
    /// The short `--help` of a subcommand with many options, which then takes `--help-all` for
    /// the whole text; `nil`: `--help` prints the whole text.
    var brief: BriefHelp? = nil
}

/// The short `--help` of a subcommand with many options, grouped as `git` and `cargo` group
/// theirs: the common options under headings, one line each; every option, the output formats
/// and the exit statuses are left to `--help-all` and the man page.
struct BriefHelp: Sendable {
    /// The arguments, in a line or two each.
    let arguments: [(name: String, help: String)]
    /// Headings (`INPUT`) and, under each, options of ``CommandSpec/options`` by long name,
    /// each with a one-line summary.
    let groups: [(title: String, options: [(long: String, summary: String)])]
    /// A few command lines, one per line.
    let examples: [String]
}

/// The parsed command line of one subcommand.
struct ParsedArguments: Equatable {
    var flags: Set<String> = []
    /// Every value given per option, in order (the last one wins for single-valued options).
    var values: [String: [String]] = [:]
    var positionals: [String] = []
    /// The positionals' exact bytes as the kernel passed them (file names need not be UTF-8;
    /// `positionals` holds them decoded, with U+FFFD for invalid bytes).
    var rawPositionals: [[UInt8]] = []

    func flag(_ long: String) -> Bool { flags.contains(long) }
    func value(_ long: String) -> String? { values[long]?.last }
}

/// A command line that cannot be run; the message names the argument at fault.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Table-driven parsing in the spirit of swift-argument-parser: `--opt value`, `--opt=value`,
/// bundled short flags (`-qr`), `-j4` or `-j 4`, `--` ends options, `-` alone is an argument.
/// Long options are matched exactly, never by abbreviation.
enum ArgumentParser {
    /// Parses `arguments` (without the program and subcommand names); `raw`, when given, holds
    /// the same arguments' bytes, kept for positionals.
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil, spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false

        func record(_ option: OptionSpec, value: String?) {
            if let value { result.values[option.long, default: []].append(value) } else { result.flags.insert(option.long) }
        }
        func nextValue(for option: OptionSpec, shown: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("missing value for '\(shown) \(option.valueName!)'") }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                result.rawPositionals.append(raw?[index] ?? Array(argument.utf8))
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline: String? = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = spec.options.first(where: { $0.long == name }) else {
                    throw UsageError(Suggestion.appended(to: "unknown option '--\(name)'", typed: name,
                                                         in: spec.options.map(\.long), prefix: "--"))
                }
                if option.takesValue {
                    let value: String
                    if let inline { value = inline } else { value = try nextValue(for: option, shown: "--\(name)") }
                    record(option, value: value)
                } else {
                    guard inline == nil else { throw UsageError("option '--\(name)' takes no value") }
                    record(option, value: nil)
                }
            } else {
                // Short options, possibly bundled: -qr, -j4, -j 4.
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = spec.options.first(where: { $0.short == letter }) else {
                        if letter.isNumber, argument.dropFirst().allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }) {
                            throw UsageError("unexpected negative number '\(argument)'; put '--' before it to pass it as an argument")
                        }
                        throw UsageError("unknown option '-\(letter)'")
                    }
                    if option.takesValue {
                        let value = letters.isEmpty ? try nextValue(for: option, shown: "-\(letter)") : String(letters)
                        record(option, value: value)
                        break
                    }
                    record(option, value: nil)
                }
            }
            index += 1
        }
        return result
    }


    /// Parses a whole number in `range` for an option, or says which option and why.
    static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text) else {
            if !text.isEmpty, text.allSatisfy(\.isASCII), text.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(\.isNumber) {
                throw UsageError("\(option) \(text) is outside \(range.lowerBound)...\(range.upperBound)")
            }
            throw UsageError("\(option) '\(text)' is not a whole number")
        }
        guard range.contains(value) else { throw UsageError("\(option) \(value) is outside \(range.lowerBound)...\(range.upperBound)") }
        return value
    }

    /// The `--help` text: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, then the discussion; for a
    /// subcommand with a ``CommandSpec/brief`` form, that form unless `all` (`--help-all`).
    static func help(for spec: CommandSpec, all: Bool = false) -> String {
        if !all, let brief = spec.brief { return briefHelp(for: spec, brief) }
        var out = "OVERVIEW: \(spec.abstract)\n\nUSAGE: \(spec.usage)\n"
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in spec.arguments { out += row(argument.name, argument.help) }
        }
        out += "\nOPTIONS:\n"
        for option in spec.options { out += row(optionColumn(option), option.help) }
        if !spec.discussion.isEmpty { out += "\n" + spec.discussion + "\n" }
        return out
    }

    /// `-j, --jobs <n>`: the left column of an option's row.
    static func optionColumn(_ option: OptionSpec) -> String {
        (option.short.map { "-\($0), " } ?? "") + "--\(option.long)" + (option.valueName.map { " <\($0)>" } ?? "")
    }

    /// The short `--help`: OVERVIEW, USAGE, ARGUMENTS, the groups of common options, `-h` and
    /// `--help-all`, EXAMPLES, and a last line saying where every option is.
    static func briefHelp(for spec: CommandSpec, _ brief: BriefHelp) -> String {
        var out = "OVERVIEW: \(spec.abstract)\n\nUSAGE: \(spec.usage)\n"
        if !brief.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in brief.arguments { out += row(argument.name, argument.help) }
        }
        for group in brief.groups {
            out += "\n\(group.title):\n"
            for (long, summary) in group.options {
                guard let option = spec.options.first(where: { $0.long == long }) else {
                    preconditionFailure("\(spec.name) --help: --\(long) is no option of \(spec.name)")
                }
                out += row(optionColumn(option), summary)
            }
        }
        out += "\n"
        for option in spec.options where option.long == "help" || option.long == "help-all" {
            out += row(optionColumn(option), option.help)
        }
        if !brief.examples.isEmpty {
            out += "\nEXAMPLES:\n" + brief.examples.map { "  \($0)\n" }.joined()
        }
        let own = spec.options.count { $0.long != "help" && $0.long != "help-all" }
        out += "\nThese are the common options; 'isbnscan \(spec.name) --help-all' shows every option (\(own) in all),\n"
            + "the output formats and the exit statuses, as 'man isbnscan' does.\n"
        return out
    }

    static func row(_ left: String, _ right: String) -> String {
        let indent = String(repeating: " ", count: 28)
        var lines = right.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.removeFirst()
        var out = "  " + left
        if left.count + 2 >= 26 { out += "\n" + indent } else { out += String(repeating: " ", count: 26 - left.count) }
        out += first + "\n"
        for line in lines { out += indent + line + "\n" }
        return out
    }
}

