// SPDX-License-Identifier: Apache-2.0
import Batch
import Capture
import Scanning

/// The man page isbnscan(1) and the bash, zsh and fish completions, generated from the same
/// tables as `--help` (``CommandSpec``, ``OptionSpec`` and the overview), so that they can never
/// list other options than the parser accepts.
///
/// Hidden entry points, used by `make install` and `make deb`:
/// `isbnscan help --man` (roff, man(7) macros) and `isbnscan help --completions bash|zsh|fish`.
enum Documentation {
    /// The subcommands in the order the man page and completions list them.
    static let commands: [CommandSpec] = [ScanCommand.spec, ValidateCommand.spec, CameraCommand.spec, DevicesCommand.spec,
                                           CatalogCommand.spec, LookupCommand.spec, RangesCommand.spec]

    /// `-h`/`--help`, which every subcommand accepts besides its own options.
    static let helpOption = OptionSpec("help", short: "h", help: "Show this help.")

    /// `--help-all`, which a subcommand with a short `--help` (``CommandSpec/brief``) accepts too.
    static let helpAllOption = OptionSpec("help-all", help: "Show every option, the output formats and the exit statuses.")

    /// The help options `command` accepts besides its own: `-h`/`--help`, and `--help-all` when
    /// its `--help` is the short form.
    static func helpOptions(of command: CommandSpec) -> [OptionSpec] {
        [helpOption] + (command.brief == nil ? [] : [helpAllOption])
    }

    /// Options of `isbnscan` itself (before any subcommand).
    static let globalOptions = [OptionSpec("help", short: "h", help: "Show the help."),
                                OptionSpec("version", help: "Show the version and the git commit built from.")]

    /// Every option a subcommand accepts, its own and `--help`.
    static func options(of command: CommandSpec) -> [OptionSpec] { command.options + helpOptions(of: command) }

    /// Runs `isbnscan help --man` or `isbnscan help --completions SHELL` (`arguments` starts
    /// with `--man` or `--completions`).
    static func run(_ arguments: [String], stdout: TextSink, stderr: TextSink) -> ExitStatus {
        switch arguments {
        case ["--man"]:
            stdout.write(manPage())
            return .found
        case ["--completions", "bash"]:
            stdout.write(bashCompletion())
            return .found
        case ["--completions", "zsh"]:
            stdout.write(zshCompletion())
            return .found
        case ["--completions", "fish"]:
            stdout.write(fishCompletion())
            return .found
        default:
            return ISBNScanCommand.usageError("give 'help --man' or 'help --completions bash|zsh|fish'", command: nil, stderr: stderr)
        }
    }

    // MARK: - What an option's value is

    /// What a shell may offer for an option's value.
    enum ValueKind: Equatable {
        case none
        case files
        case devices
        case choices([String])
    }

    /// The completion for `option`'s value: file names for files, `/dev/video*` for devices,
    /// the fixed words of `--effort`, `camera --format` and `catalog --format`, nothing for numbers and regions.
    static func valueKind(of option: OptionSpec, in command: CommandSpec) -> ValueKind {
        guard let value = option.valueName else { return .none }
        switch (command.name, option.long) {
        case (_, "effort"): return .choices(Effort.allCases.map(\.rawValue))
        case ("camera", "format"): return .choices(["auto"] + PixelFormat.preferred.map(\.description))
        case ("catalog", "format"): return .choices(BookExport.formats)
        case (_, "device"): return .devices
        default: return value == "file" || value == "path" ? .files : .none
        }
    }

    /// What a subcommand's arguments are: image files and folders for `scan`, nothing to offer otherwise.
    static func takesFiles(_ command: CommandSpec) -> Bool { command.name == "scan" }

    // MARK: - Sections of help texts

    /// A help text cut at its headings: lines at the left margin that end in `:` or start with
    /// `WORD:` in capitals (`EXIT STATUS:`, `OVERVIEW: Read ...`). Text before the first heading has
    /// no title. Body lines keep their indentation.
    static func sections(_ text: String) -> [(title: String?, lines: [String])] {
        var result: [(title: String?, lines: [String])] = [(nil, [])]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            // The capitals before any parenthesis make the heading: `CSV (--csv): columns ...`.
            if let colon = line.firstIndex(of: ":"), line.first?.isUppercase == true,
               case let caps = line[..<colon].prefix(while: { $0 != "(" }),
               caps.allSatisfy({ $0.isUppercase || $0 == " " }), caps.contains(where: { $0.isLetter }) {
                let rest = line[line.index(after: colon)...].drop { $0 == " " }
                // Text after the colon joins the body at the body's indentation.
                result.append((String(line[..<colon]), rest.isEmpty ? [] : ["  " + rest]))
            } else {
                result[result.count - 1].lines.append(line)
            }
        }
        return result.filter { $0.title != nil || $0.lines.contains { !$0.isEmpty } }
    }

    /// The lines of `section` in `text` (`EXAMPLES`), or none.
    static func section(_ title: String, of text: String) -> [String] {
        sections(text).first { $0.title == title }?.lines ?? []
    }

    // MARK: - Man page

    /// The overview's note on when `scan` is implied (the parenthesis after its second USAGE
    /// line), as a sentence: `When the first argument is a scan option, …, 'scan' is implied, …`.
    static func impliedScan(_ overview: String) -> String {
        let lines = section("USAGE", of: overview).drop { !$0.contains("(when ") }
        var text = lines.map { $0.trimmingLeadingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
        if text.hasPrefix("(w") { text = "W" + text.dropFirst(2) }
        if text.hasSuffix(")") { text = text.dropLast() + "." }
        return text
    }

    /// Text for roff: backslashes as `\e`, hyphen-minus as `\-` (so that options copy and paste),
    /// a leading `.` or `'` guarded with `\&`.
    static func roff(_ text: String) -> String {
        var out = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// `-r, --recursive` or `--jobs n` in bold, values in italics.
    static func roffOption(_ option: OptionSpec) -> String {
        var out = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        out += "\\fB\\-\\-\(roff(option.long))\\fR"
        if let value = option.valueName { out += " \\fI\(roff(value))\\fR" }
        return out
    }

    /// Lines as one roff no-fill block, indented by 4 spaces (their own indentation replaced).
    static func roffBlock(_ lines: [String]) -> String {
        var lines = lines
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        var out = ".nf\n"
        for line in lines { out += (line.isEmpty ? "" : roff("    " + line.dropFirst(indent))) + "\n" }
        return out + ".fi\n"
    }

    /// An option's help as one line of running text. The `--jobs` default names this
    /// machine's core count ("2 here"), which means nothing in a page read elsewhere.
    static func running(_ help: String) -> String {
        help.split(separator: "\n").joined(separator: " ").replacingAll(", \(BatchScanner.defaultJobs) here)", with: ")")
    }

    /// Running text (lines joined, paragraphs at blank lines) as roff paragraphs.
    static func roffParagraphs(_ lines: [String]) -> String {
        var out = "", paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { out += ".PP\n" + roff(paragraph.joined(separator: " ")) + "\n" }
            paragraph = []
        }
        for line in lines {
            let trimmed = line.trimmingLeadingSpaces()
            if trimmed.isEmpty { flush() } else { paragraph.append(trimmed) }
        }
        flush()
        return out
    }

    /// isbnscan(1) in man(7) macros: NAME, SYNOPSIS, DESCRIPTION, one COMMANDS subsection per
    /// subcommand (arguments, every option, its discussion including exit statuses and examples),
    /// OPTIONS, EXIT STATUS, EXAMPLES, ENVIRONMENT, SEE ALSO.
    static func manPage() -> String {
        let overview = ISBNScanCommand.overview
        var out = """
        .\\" isbnscan(1), generated by `isbnscan help --man` from the option tables of --help.
        .TH ISBNSCAN 1 "" "isbnscan \(ISBNScanCommand.version)" "User Commands"
        .SH NAME
        isbnscan \\- read book barcodes (EAN\\-13 ISBNs) from photos, scans and webcams
        .SH SYNOPSIS
        .nf

        """
        for command in commands { out += roff(command.usage) + "\n" }
        out += "isbnscan [scan options] <file\\-or\\-folder> ...\n"
        out += "isbnscan help [\\fIsubcommand\\fR]\nisbnscan \\-\\-version\n.fi\n"
        out += ".SH DESCRIPTION\n" + roffParagraphs(section("OVERVIEW", of: overview))
        out += roffParagraphs([impliedScan(overview)])

        out += ".SH COMMANDS\n"
        for command in commands {
            out += ".SS \"isbnscan \(roff(command.name))\"\n" + roffParagraphs([command.abstract])
            out += ".PP\nUsage: \\fB\(roff(command.usage))\\fR\n"
            for argument in command.arguments {
                out += ".TP\n\\fI\(roff(argument.name))\\fR\n" + roff(argument.help.split(separator: "\n").joined(separator: " ")) + "\n"
            }
            for option in options(of: command) {
                out += ".TP\n\(roffOption(option))\n" + roff(running(option.help)) + "\n"
            }
            for part in sections(command.discussion) {
                if let title = part.title {
                    out += ".PP\n\\fB\(roff(title))\\fR\n" + roffBlock(part.lines)
                } else {
                    out += roffParagraphs(part.lines)
                }
            }
        }
        out += ".SH OPTIONS\n"
        for option in globalOptions { out += ".TP\n\(roffOption(option))\n\(roff(option.help))\n" }
        out += ".SH EXIT STATUS\nEach subcommand's section above says what its statuses mean. In short:\n"
        for status in ExitStatus.allCases where status != .success {  // .success and .found are both 0
            out += ".TP\n.B \(status.rawValue)\n\(roff(meaning(of: status)))\n"
        }
        // The overview's examples, without the "See 'isbnscan help ...'" line that follows them.
        out += ".SH EXAMPLES\n" + roffBlock(section("EXAMPLES", of: overview).prefix { $0.isEmpty || $0.hasPrefix(" ") }.map { $0 })
        out += """
        .SH ENVIRONMENT
        .TP
        .B ISBNSCAN_DEV_DIR
        The folder searched for \\fBvideo\\fIN\\fR device nodes instead of \\fI/dev\\fR (for tests).
        .TP
        .B OMP_THREAD_LIMIT
        Threads of each Tesseract engine (scan \\-\\-text, \\-\\-effort thorough): 1 unless set, as the workers (\\-j) already use the cores.
        .SH SEE ALSO
        .BR tesseract (1),
        .BR zbarimg (1),
        .BR find (1),
        .BR parallel (1)

        """
        return out
    }

    /// One line per exit status for the man page's summary.
    static func meaning(of status: ExitStatus) -> String {
        switch status {
        case .found, .success: return "An ISBN was found or printed (scan, camera); every code valid (validate); a capture device listed (devices); help or the version printed."
        case .inputError: return "An input could not be read or the results not written (scan); a code invalid or refused (validate); a device could not be used (camera, devices)."
        case .usage: return "Usage error: unknown option, bad value, missing argument."
        case .outputError: return "The results could not be written (scan, camera): the -o file or standard output (a full disk; a closed pipe ends the run quietly)."
        case .nothingFound: return "Every input was read and no ISBN was found (scan); none before --timeout or --max-frames (camera); no capture device (devices)."
        case .interrupted: return "Interrupted by SIGINT or SIGTERM; the results so far are written, the camera released (catalog export -o leaves its file as it was)."
        }
    }

    // MARK: - Completions

    /// The first sentence of an option's help, for shells that show one.
    static func summary(_ help: String) -> String {
        let text = running(help)
        guard let end = text.firstRange(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }

    static func names(of option: OptionSpec) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.long)"]
    }

    /// bash: a `complete -F` function (no bash-completion helpers needed): subcommands, each
    /// subcommand's options, option values (files, /dev/video*, fixed words), files for `scan`.
    static func bashCompletion() -> String {
        let subcommands = commands.map(\.name) + ["help"]
        var out = """
        # bash completion for isbnscan, generated by `isbnscan help --completions bash`.
        _isbnscan() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command="" i
            for ((i = 1; i < COMP_CWORD; i++)); do
                case ${COMP_WORDS[i]} in
                    \(subcommands.joined(separator: "|"))) command=${COMP_WORDS[i]}; break ;;
                esac
            done
            case $command in
                "")
                    COMPREPLY=($(compgen -W "\((subcommands + globalOptions.flatMap(names)).joined(separator: " "))" -- "$cur"))
                    return ;;
                help)
                    COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur"))
                    return ;;

        """
        for command in commands {
            out += "        \(command.name))\n            case $prev in\n"
            for option in options(of: command) where option.takesValue {
                let pattern = names(of: option).joined(separator: "|")
                switch valueKind(of: option, in: command) {
                case .files: out += "                \(pattern)) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                case .devices: out += "                \(pattern)) COMPREPLY=($(compgen -G '/dev/video*' -- \"$cur\")); return ;;\n"
                case .choices(let words): out += "                \(pattern)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                case .none: out += "                \(pattern)) COMPREPLY=(); return ;;\n"
                }
            }
            out += "            esac\n"
            let words = options(of: command).flatMap(names).joined(separator: " ")
            if takesFiles(command) {
                out += """
                            if [[ $cur == -* ]]; then
                                COMPREPLY=($(compgen -W "\(words)" -- "$cur"))
                            else
                                compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))
                            fi
                            return ;;

                """
            } else {
                out += "            COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\"))\n            return ;;\n"
            }
        }
        out += "    esac\n}\ncomplete -F _isbnscan isbnscan\n"
        return out
    }

    /// zsh: `#compdef isbnscan`, `_arguments` per subcommand with each option's description.
    static func zshCompletion() -> String {
        func quoted(_ text: String) -> String {
            // Inside '...' for _arguments: no quotes, and [ ] : are special in the description.
            text.replacingAll("'", with: "").replacingAll("[", with: "(").replacingAll("]", with: ")")
                .replacingAll(":", with: " -").replacingAll("\\", with: "")
        }
        var out = """
        #compdef isbnscan
        # zsh completion for isbnscan, generated by `isbnscan help --completions zsh`.
        _isbnscan() {
          local -a subcommands
          subcommands=(

        """
        for command in commands { out += "    '\(command.name):\(quoted(command.abstract))'\n" }
        out += "    'help:Show help for isbnscan or one subcommand'\n  )\n"
        out += """
          local -a options
          options=(\(globalOptions.flatMap { option in names(of: option).map { "'\($0):\(quoted(option.help))'" } }.joined(separator: " ")))
          if (( CURRENT == 2 )); then
            if [[ $PREFIX == -* ]]; then
              _describe -t options 'option' options
            else
              _describe -t subcommands 'subcommand' subcommands
            fi
            return
          fi
          local command=$words[2]
          shift words
          (( CURRENT-- ))
          case $command in
            help) _values 'subcommand' \(commands.map(\.name).joined(separator: " ")) ;;

        """
        for command in commands {
            out += "    \(command.name))\n      _arguments -s -S \\\n"
            for option in options(of: command) {
                let all = names(of: option)
                var spec = all.count > 1 ? "'(\(all.joined(separator: " ")))'{" : "'"
                if option.takesValue {
                    spec += all.count > 1 ? "-\(option.short!)+,--\(option.long)=}'" : "--\(option.long)="
                } else {
                    spec += all.count > 1 ? all.joined(separator: ",") + "}'" : all[0]
                }
                spec += "[\(quoted(summary(option.help)))]"
                if let value = option.valueName {
                    let action: String
                    switch valueKind(of: option, in: command) {
                    case .files: action = "_files"
                    case .devices: action = "_files -g \"/dev/video*\""
                    case .choices(let words): action = "(\(words.joined(separator: " ")))"
                    case .none: action = " "
                    }
                    spec += ":\(quoted(value)):\(action)"
                }
                out += "        \(spec)'"
                out += " \\\n"
            }
            out += takesFiles(command) ? "        '*:file or folder:_files'\n" : "        '*: :'\n"
            out += "      ;;\n"
        }
        out += "  esac\n}\n_isbnscan \"$@\"\n"
        return out
    }

    /// fish: `complete -c isbnscan` lines, one per subcommand and per option.
    static func fishCompletion() -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
        }
        let names = commands.map(\.name).joined(separator: " ")
        var out = "# fish completion for isbnscan, generated by `isbnscan help --completions fish`.\n"
        out += "complete -c isbnscan -f\n"
        for command in commands {
            out += "complete -c isbnscan -n '__fish_use_subcommand' -a \(command.name) -d \(quoted(command.abstract))\n"
        }
        out += "complete -c isbnscan -n '__fish_use_subcommand' -a help -d 'Show help for isbnscan or one subcommand'\n"
        for option in globalOptions {
            out += "complete -c isbnscan -n '__fish_use_subcommand'" + (option.short.map { " -s \($0)" } ?? "")
                + " -l \(option.long) -d \(quoted(option.help))\n"
        }
        out += "complete -c isbnscan -n '__fish_seen_subcommand_from help' -a \(quoted(names))\n"
        for command in commands {
            let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
            if takesFiles(command) { out += "complete -c isbnscan \(condition) -F\n" }
            for option in options(of: command) {
                var line = "complete -c isbnscan \(condition)" + (option.short.map { " -s \($0)" } ?? "") + " -l \(option.long)"
                switch valueKind(of: option, in: command) {
                case .none: line += option.takesValue ? " -x" : ""
                case .files: line += " -r -F"
                case .devices: line += " -x -a '(string match \"/dev/video*\" /dev/*)'"
                case .choices(let words): line += " -x -a \(quoted(words.joined(separator: " ")))"
                }
                out += line + " -d \(quoted(summary(option.help)))\n"
            }
        }
        return out
    }
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = "", rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
