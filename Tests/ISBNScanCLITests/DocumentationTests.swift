// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import ISBNScanCLI
import TestSupport

/// The man page and shell completions are generated from the parser's tables: every option the
/// parser accepts must appear in each, and each must be valid for its reader (groff, bash, zsh, fish).
@Suite struct DocumentationTests {
    /// Every subcommand with every option its parser accepts (its own and -h/--help).
    var parserOptions: [(command: String, options: [OptionSpec])] {
        ISBNScanCommand.specs.values.sorted { $0.name < $1.name }.map { ($0.name, $0.options + Documentation.helpOptions(of: $0)) }
    }

    func write(_ text: String, suffix: String) throws -> String {
        let path = NSTemporaryDirectory() + "isbnscan-doc-\(UUID().uuidString)\(suffix)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `/usr/bin/env arguments`, returning status, stdout and stderr.
    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        try isbnscan(Array(arguments.dropFirst()), environment: environment, executable: arguments[0])
    }

    @Test func everySubcommandIsDocumented() {
        #expect(Documentation.commands.map(\.name).sorted() == ISBNScanCommand.specs.keys.sorted())
    }

    @Test func manPageListsEveryOptionAndExitStatus() throws {
        let man = try isbnscan(["help", "--man"])
        #expect(man.status == 0)
        #expect(man.stderr.isEmpty)
        #expect(man.stdout.hasPrefix(".\\\" isbnscan(1)"))
        #expect(man.stdout.contains(".TH ISBNSCAN 1 \"\" \"isbnscan \(ISBNScanCommand.version)\" \"User Commands\"\n"))
        for (command, options) in parserOptions {
            #expect(man.stdout.contains(".SS \"isbnscan \(command)\"\n"))
            for option in options {
                #expect(man.stdout.contains("\\fB\\-\\-\(option.long.replacingAll("-", with: "\\-"))\\fR"), "\(command) --\(option.long)")
                if let short = option.short { #expect(man.stdout.contains(".TP\n\\fB\\-\(short)\\fR, "), "\(command) -\(short)") }
            }
        }
        for status in ExitStatus.allCases { #expect(man.stdout.contains(".TP\n.B \(status.rawValue)\n")) }
        // Each subcommand's own exit statuses and examples (from its --help) are in its section.
        #expect(man.stdout.components(separatedBy: ".PP\n\\fBEXIT STATUS\\fR\n").count == ISBNScanCommand.specs.count + 1)
        #expect(man.stdout.contains("\n    isbnscan scan \\-r \\-\\-shard 2/8 \\-\\-json \\-o part\\-2.jsonl /data/books\n"))
        #expect(!man.stdout.contains(" here)"))  // the build machine's core count stays out of the page

        // groff reads it without a warning, and man shows the options.
        let page = try write(man.stdout, suffix: ".1")
        defer { try? FileManager.default.removeItem(atPath: page) }
        let groff = try run(["/usr/bin/groff", "-man", "-Tutf8", "-ww", "-z", page])
        #expect(groff.status == 0)
        #expect(groff.stderr == "")
        let shown = try run(["/usr/bin/groff", "-man", "-Tascii", "-P-c", "-P-b", "-P-u", page])
        #expect(shown.stdout.contains("--shard i/n\n"))
        #expect(shown.stdout.contains("-0, --null\n"))
        #expect(shown.stdout.contains("isbnscan camera --continuous"))
    }

    @Test func completionsListEveryOption() throws {
        let bash = try isbnscan(["help", "--completions", "bash"]).stdout
        let zsh = try isbnscan(["help", "--completions", "zsh"]).stdout
        let fish = try isbnscan(["help", "--completions", "fish"]).stdout
        /// The words bash offers for options of `command` (its `compgen -W` list after the values).
        func bashWords(_ command: String) -> Set<String> {
            guard let block = bash.components(separatedBy: "        \(command))\n").dropFirst().first,
                  let afterValues = block.components(separatedBy: "esac").dropFirst().first,
                  let list = afterValues.components(separatedBy: "compgen -W \"").dropFirst().first else { return [] }
            return Set(list.prefix { $0 != "\"" }.split(separator: " ").map(String.init))
        }
        for (command, options) in parserOptions {
            #expect(bash.contains("        \(command))\n"))
            let words = bashWords(command)
            #expect(zsh.contains("    \(command))\n"))
            #expect(fish.contains("-n '__fish_use_subcommand' -a \(command) "))
            for option in options {
                #expect(words.contains("--\(option.long)"), "bash: \(command) --\(option.long)")
                #expect(zsh.contains("--\(option.long)[") || zsh.contains("--\(option.long)=") || zsh.contains("--\(option.long)}"), "zsh: \(command) --\(option.long)")
                #expect(fish.contains("'__fish_seen_subcommand_from \(command)'" + (option.short.map { " -s \($0)" } ?? "") + " -l \(option.long) "),
                        "fish: \(command) --\(option.long)")
                if let short = option.short {
                    #expect(words.contains("-\(short)"), "bash: \(command) -\(short)")
                    #expect(zsh.contains("{-\(short),--\(option.long)}") || zsh.contains("{-\(short)+,--\(option.long)=}"), "zsh: \(command) -\(short)")
                }
            }
        }
        let bad = try isbnscan(["help", "--completions", "tcsh"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: give 'help --man' or 'help --completions bash|zsh|fish'\n"))
    }

    /// Sources the bash completion and asks it what it offers, as bash does on Tab.
    @Test(arguments: [
        ("isbnscan ", "scan validate camera devices catalog lookup ranges help -h --help --version"),
        ("isbnscan sc", "scan"),
        ("isbnscan scan --sh", "--shard"),
        ("isbnscan scan --effort ", "fast normal thorough"),
        ("isbnscan scan -j 2 --files", "--files-from"),
        ("isbnscan camera --format ", "auto GREY YUYV NV12 YU12 MJPG"),
        ("isbnscan catalog export --format ", "csv jsonl isbn-list goodreads libib bibtex ris csl-json"),
        ("isbnscan catalog export --format g", "goodreads"),
        ("isbnscan scan --jobs ", ""),
        ("isbnscan help d", "devices"),
        ("isbnscan validate --", "--json --accept --help"),
        ("isbnscan scan --help", "--help --help-all"),
        ("isbnscan scan TestImages/ro", "TestImages/roi"),
    ])
    func bashCompletionOffers(line: String, offered: String) throws {
        let script = try write(try isbnscan(["help", "--completions", "bash"]).stdout, suffix: ".bash")
        defer { try? FileManager.default.removeItem(atPath: script) }
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }
        if line.hasSuffix(" ") { words[words.count - 1] = "''" }
        let probe = "source '\(script)'; cd '\(testImages)/..'; COMP_WORDS=(\(words.joined(separator: " "))); COMP_CWORD=\(words.count - 1); _isbnscan; echo \"${COMPREPLY[*]}\""
        let result = try run(["/bin/bash", "--norc", "--noprofile", "-c", probe])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == offered + "\n")
    }

    /// zsh and fish parse their scripts without error (make deps installs both).
    @Test func zshAndFishScriptsParse() throws {
        let zsh = try write(try isbnscan(["help", "--completions", "zsh"]).stdout, suffix: "")
        let fish = try write(try isbnscan(["help", "--completions", "fish"]).stdout, suffix: ".fish")
        defer { try? FileManager.default.removeItem(atPath: zsh); try? FileManager.default.removeItem(atPath: fish) }
        let zshCheck = try run(["/usr/bin/zsh", "-n", zsh])
        #expect(zshCheck.status == 0)
        #expect(zshCheck.stderr == "")
        let fishCheck = try run(["/usr/bin/fish", "--no-execute", fish])
        #expect(fishCheck.status == 0)
        #expect(fishCheck.stderr == "")
        // fish offers the effort levels for --effort.
        let offered = try run(["/usr/bin/fish", "--no-config", "-c", "source \(fish); complete -C 'isbnscan scan --effort '"])
        #expect(offered.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == ["fast", "normal", "thorough"])
    }
}
