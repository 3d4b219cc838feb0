// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import ISBNScanCLI
import TestSupport

@Suite struct CommandLineTests {
    @Test(arguments: [
        (["scan", "--roi", "0.5,0.2,0.6,0.4", "x.png"], "Error: --roi: x+width is 1.1, past the image edge at 1"),
        (["scan", "--roi", "1,2,3", "x.png"], "Error: --roi: expected four numbers x,y,width,height, got '1,2,3'"),
        (["scan", "--roi-avfoundation", "0.4,0.05,0.15,0", "x.png"], "Error: --roi-avfoundation: rectOfInterest.height must be at least 0.001"),
        (["scan", "--roi", "0,0,1,1", "--roi-avfoundation", "0,0,1,1", "x.png"], "Error: give either --roi or --roi-avfoundation, not both"),
        (["scan", "--frobnicate", "x.png"], "Error: unknown option '--frobnicate'"),
        (["scan", "--al", "x.png"], "Error: unknown option '--al' (did you mean '--all'?)"),
        (["scan", "--roi"], "Error: missing value for '--roi x,y,w,h'"),
        (["scan", "--json=yes", "x.png"], "Error: option '--json' takes no value"),
        (["scan", "--max-pixels", "many", "x.png"], "Error: --max-pixels 'many' is not a whole number"),
        (["scan", "--max-pixels", "99999999999999999999", "x.png"], "Error: --max-pixels 99999999999999999999 is outside 1...1099511627776"),
        (["scan", "--max-pixels", "0", "x.png"], "Error: --max-pixels 0 is outside 1...1099511627776"),
        (["scan", "--effort", "max", "x.png"], "Error: --effort 'max' is not one of fast, normal, thorough"),
        (["camera", "--effort", "max"], "Error: --effort 'max' is not one of fast, normal, thorough"),
        (["scan"], "Error: no image file or folder given"),
        (["scan", "-j", "0", "x.png"], "Error: --jobs 0 is outside 1...256"),
        (["scan", "--json", "--csv", "x.png"], "Error: give either --json or --csv, not both"),
        (["scan", "-", "-"], "Error: '-' (standard input) can be given only once"),
        (["scan", "-o", "", "x.png"], "Error: --output needs a file name"),
        (["scan", "--roi", "0,0,1e-300,1", "x.png"], "Error: --roi: width must be at least 0.001"),
        (["scan", "--roi", "5,40,90,15", "x.png"],
         "Error: --roi: x 5.0 is outside 0...1 (give fractions 0-1 of the image, e.g. --roi 0.05,0.4,0.9,0.15, or percentages, e.g. --roi 5%,40%,90%,15%)"),
        (["scan", "--roi", "5px,40px,90px,15px", "x.png"],
         "Error: --roi: x '5px' is not a number (give fractions 0-1 of the image, e.g. --roi 0.05,0.4,0.9,0.15, or percentages, e.g. --roi 5%,40%,90%,15%)"),
        (["camera", "--roi", "5% 40% 90% 15%"],
         "Error: --roi: expected four numbers x,y,width,height, got '5% 40% 90% 15%' (give fractions 0-1 of the image, e.g. --roi 0.05,0.4,0.9,0.15, or percentages, e.g. --roi 5%,40%,90%,15%)"),
        (["scan", "--roi-avfoundation", "40,5,15,90", "x.png"],
         "Error: --roi-avfoundation: rectOfInterest.x 40.0 is outside 0...1 (give fractions 0-1 of the image, e.g. --roi-avfoundation 0.4,0.05,0.15,0.9, or percentages, e.g. --roi-avfoundation 40%,5%,15%,90%)"),
        (["scan", "--roi", "50%,20%,60%,40%", "x.png"], "Error: --roi: x+width is 1.1, past the image edge at 1\n"),
        (["scan", "--roi", "5%, 40%,150 %,15%", "x.png"], "Error: --roi: width 150 % is outside 0%...100%\n"),
        (["scan", "--roi", "-5%,40%,90%,15%", "x.png"], "Error: --roi: x -5% is outside 0%...100%\n"),
        (["scan", "--roi-avfoundation", "40%,5%,15%,101%", "x.png"], "Error: --roi-avfoundation: rectOfInterest.height 101% is outside 0%...100%\n"),
        (["scan", "--roi", "5%,0.4,90%,15%", "x.png"],
         "Error: --roi: '5%,0.4,90%,15%' mixes fractions and percentages; give all four as one or the other\n"),
        (["camera", "--roi", "0%,0.4,1,0.15"],
         "Error: --roi: '0%,0.4,1,0.15' mixes fractions and percentages; give all four as one or the other\n"),
        (["scan", "--unique", "--all", "x.png"], "Error: --unique lists accepted ISBNs only; it cannot be combined with --all"),
        (["scan", "--unique", "--addons", "x.png"], "Error: --unique counts ISBNs, whatever their add-on; it cannot be combined with --addons"),
        (["validate"], "Error: no code given"),
        (["frobnicate"], "Error: unknown subcommand 'frobnicate'"),
        ([], "OVERVIEW: Read book barcodes"),
    ])
    func usageErrorsExitTwoOnStderr(arguments: [String], firstLine: String) throws {
        let run = try isbnscan(arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix(firstLine))
    }

    /// Typos get the nearest option, subcommand or action (edit distance, as git and cargo);
    /// a name far from every known one gets none.
    @Test(arguments: [
        (["scan", "--recusive", "x.png"], "Error: unknown option '--recusive' (did you mean '--recursive'?)"),
        (["--recusive", "x.png"], "Error: unknown option '--recusive' (did you mean '--recursive'?)"),
        (["--verison"], "Error: unknown option '--verison' (did you mean '--version'?)"),
        (["camera", "--contiuous"], "Error: unknown option '--contiuous' (did you mean '--continuous'?)"),
        (["catalogue", "list"], "Error: unknown subcommand 'catalogue' (did you mean 'catalog'?)"),
        (["help", "catalogue"], "Error: unknown subcommand 'catalogue' (did you mean 'catalog'?)"),
        (["vaildate", "0306406152"], "Error: unknown subcommand 'vaildate' (did you mean 'validate'?)"),
        (["catalog", "lsit", "--db", "books.db"],
         "Error: unknown action 'lsit' (list, export, stats, lookup, merge, remove) (did you mean 'list'?)"),
        (["catalog", "list", "books.db"], "Error: --db <file> is required (did you mean '--db books.db'?)"),
        (["catalog", "export"], "Error: --db <file> is required"),
        // A value from a fixed set: the nearest one, after the list of them.
        (["catalog", "export", "--db", "books.db", "--format", "goodread"],
         "Error: --format 'goodread' is not one of csv, jsonl, isbn-list, goodreads, libib, bibtex, ris, csl-json (did you mean 'goodreads'?)"),
        (["catalog", "export", "--db", "books.db", "--format", "csvv"],
         "Error: --format 'csvv' is not one of csv, jsonl, isbn-list, goodreads, libib, bibtex, ris, csl-json (did you mean 'csv'?)"),
        (["catalog", "export", "--db", "books.db", "--format=CSV"],
         "Error: --format 'CSV' is not one of csv, jsonl, isbn-list, goodreads, libib, bibtex, ris, csl-json (did you mean 'csv'?)"),
        (["catalog", "export", "--db", "books.db", "--format", "xls"],
         "Error: --format 'xls' is not one of csv, jsonl, isbn-list, goodreads, libib, bibtex, ris, csl-json"),
        (["scan", "--effort", "thorogh", "x.png"], "Error: --effort 'thorogh' is not one of fast, normal, thorough (did you mean 'thorough'?)"),
        (["camera", "--effort", "fats"], "Error: --effort 'fats' is not one of fast, normal, thorough (did you mean 'fast'?)"),
        (["camera", "--format", "MJPEG"], "Error: --format 'MJPEG' is not one of auto, GREY, YUYV, NV12, YU12, MJPG (did you mean 'MJPG'?)"),
        (["lookup", "--provider", "openlibary,google", "9780306406157"],
         "Error: --provider 'openlibary' is not one of openlibrary, google, ndl (did you mean 'openlibrary'?)"),
        (["catalog", "lookup", "--db", "books.db", "--provider", "Google"],
         "Error: --provider 'Google' is not one of openlibrary, google, ndl (did you mean 'google'?)"),
        (["scan", "--JSON", "x.png"], "Error: unknown option '--JSON' (did you mean '--json'?)"),
        (["scan", "--frobnicate", "x.png"], "Error: unknown option '--frobnicate'"),
        (["frobnicate"], "Error: unknown subcommand 'frobnicate'"),
    ])
    func typosGetTheNearestName(arguments: [String], firstLine: String) throws {
        let run = try isbnscan(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").first.map(String.init) == firstLine)
    }

    /// `--roi` in percentages reads the region the fractions name: the band finds the book
    /// inside it and not the one above it, which the whole image finds.
    @Test func roiInPercentagesIsTheSameRegion() throws {
        let inside = "\(testImages)/roi/band-inside.png", outside = "\(testImages)/roi/band-outside.png"
        for (image, found) in [(inside, "9780345391803\n"), (outside, "")] {
            let percent = try isbnscan(["scan", "--roi", "5%,40%,90%,15%", image])
            #expect(percent.stdout == found, "\(image)")
            #expect(percent.status == (found.isEmpty ? 4 : 0), "\(image)")
            let fraction = try isbnscan(["scan", "--roi", "0.05,0.4,0.9,0.15", image])
            #expect(fraction.stdout == percent.stdout && fraction.status == percent.status, "\(image)")
        }
        #expect(try isbnscan(["scan", outside]).stdout == "9780060850524\n")
    }

    @Test func usageErrorShowsUsageAndHelpPointer() throws {
        let run = try isbnscan(["scan", "--frobnicate"])
        #expect(run.stderr == """
            Error: unknown option '--frobnicate'
            Usage: \(ScanCommand.spec.usage)
              See 'isbnscan scan --help'.

            """)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "help"], ["help", "scan"], ["scan", "--help"], ["validate", "-h"], ["--version"]])
    func helpAndVersionGoToStdoutWithStatusZero(arguments: [String]) throws {
        let run = try isbnscan(arguments)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(!run.stdout.isEmpty)
    }

    @Test func scanHelpAllDocumentsExitStatusesAndOptions() throws {
        let help = try isbnscan(["scan", "--help-all"]).stdout
        for text in ["USAGE: isbnscan scan", "--roi <x,y,w,h>", "--roi-avfoundation", "--all", "--addons", "--json",
                     "--max-pixels <n>", "-q, --quiet", "EXIT STATUS:", "4    every input was read",
                     "-r, --recursive", "--hidden", "-j, --jobs <n>", "--csv", "--unique", "-o, --output <file>",
                     "130  interrupted", "FOLDERS:", "file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,\n  price,page,warning,c_code;"] {
            #expect(help.contains(text), "help lacks \(text)")
        }
    }

    /// `scan --help` is a screen: the common options under the headings INPUT, READING, OUTPUT,
    /// CATALOGUE and LOOKUP, one line each, and a last line naming `--help-all`, which lists every
    /// option the parser takes (as the whole help did), the formats and the exit statuses.
    @Test func scanHelpShowsTheCommonOptionsGroupedAndHelpAllShowsEvery() throws {
        let help = try isbnscan(["scan", "--help"])
        #expect(help.status == 0 && help.stderr == "")
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 60, "scan --help has \(lines.count) lines")
        let headings = lines.filter { $0.hasSuffix(":") && !$0.hasPrefix(" ") }
        #expect(headings == ["ARGUMENTS:", "INPUT:", "READING:", "OUTPUT:", "CATALOGUE:", "LOOKUP:", "EXAMPLES:"])
        for row in ["  -r, --recursive           Also scan the subfolders of the folders given.",
                    "  --effort <level>          fast, normal (the default) or thorough.",
                    "  --db <file>               Record every file and ISBN in this SQLite catalogue;",
                    "  -h, --help                Show this help.",
                    "  --help-all                Show every option, the output formats and the exit statuses."] {
            #expect(lines.contains(Substring(row)), "scan --help lacks \(row)")
        }
        #expect(help.stdout.hasSuffix("""

            These are the common options; 'isbnscan scan --help-all' shows every option (25 in all),
            the output formats and the exit statuses, as 'man isbnscan' does.

            """))
        #expect(!help.stdout.contains("--roi-avfoundation") && !help.stdout.contains("EXIT STATUS:"))
        #expect(try isbnscan(["help", "scan"]).stdout == help.stdout)
        let all = try isbnscan(["scan", "--help-all"])
        #expect(all.status == 0 && all.stderr == "")
        let spec = try #require(ISBNScanCommand.specs["scan"])
        #expect(spec.options.count == 25)
        let listed = try Self.helpOptions(of: "scan")
        #expect(listed.long == Set(spec.options.map(\.long)).union(["help", "help-all"]))
        #expect(all.stdout.count > 3 * help.stdout.count)
        #expect(all.stdout.contains("\nEXIT STATUS:\n") && all.stdout.contains("\nJSON (--json), one line per file:\n"))
        // Only scan has a short form: the others' --help is whole, and --help-all is no option of theirs.
        let validate = try isbnscan(["validate", "--help-all"])
        #expect(validate.status == 2)
        #expect(validate.stderr.hasPrefix("Error: unknown option '--help-all'"))
    }

    /// Every subcommand, `help` included (README: "-h / --help anywhere").
    static let subcommands = ["scan", "validate", "camera", "devices", "catalog", "lookup", "ranges", "help"]

    @Test func theSubcommandListIsComplete() {
        #expect(Set(Self.subcommands) == Set(ISBNScanCommand.specs.keys).union(["help"]))
    }

    @Test(arguments: subcommands)
    func helpForASubcommandIsItsHelpOption(name: String) throws {
        let viaHelp = try isbnscan(["help", name])
        let viaOption = try isbnscan([name, "--help"])
        let viaShort = try isbnscan([name, "-h"])
        #expect(viaHelp.status == 0)
        #expect(viaOption.status == 0 && viaShort.status == 0)
        #expect(viaHelp.stderr == "" && viaOption.stderr == "" && viaShort.stderr == "")
        #expect(viaHelp.stdout == viaOption.stdout)
        #expect(viaShort.stdout == viaOption.stdout)
        if name == "help" {
            #expect(viaHelp.stdout == (try isbnscan(["--help"])).stdout)
        } else {
            #expect(viaHelp.stdout.hasPrefix("OVERVIEW: "))
            #expect(viaHelp.stdout.contains("USAGE: isbnscan \(name)"))
            #expect(viaHelp.stdout.contains("\n  -h, --help                Show this help.\n"))
        }
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "help"], ["help", "--help"], ["help", "scan"], ["scan", "--help"],
                      ["validate", "-h"], ["camera", "--help"], ["devices", "-h"], ["catalog", "--help"], ["ranges", "-h"],
                      ["help", "catalog"], ["help", "ranges"], ["--version"]])
    func helpAndVersionSucceedWithoutFindingAnything(arguments: [String]) {
        let status = ISBNScanCommand.run(arguments, stdout: StringSink(), stderr: StringSink())
        #expect(status == .success)
        #expect(status != .found)
        #expect(status.rawValue == 0)
    }

    @Test func exitStatusNumbers() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 0, 1, 2, 3, 4, 130])
    }

    @Test func anExistingFileOrFolderFirstMeansScan() throws {
        let file = "\(testImages)/isbn/png-gray8.png"
        let implied = try isbnscan([file])
        #expect(implied.status == 0)
        #expect(implied.stdout == "9780306406157\n")
        #expect(implied.stderr == "")

        let folder = "\(testImages)/exif"
        let explicit = try isbnscan(["scan", folder, "--json", "-j", "1"])
        let short = try isbnscan([folder, "--json", "-j", "1"])
        #expect(short.status == explicit.status)
        #expect(short.stdout == explicit.stdout)
        #expect(!short.stdout.isEmpty)
        // Usage errors then point at scan's help.
        let wrong = try isbnscan([file, "--frobnicate"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.hasSuffix("See 'isbnscan scan --help'.\n"))
    }

    /// zbarimg users type options first: a scan option first implies `scan`, as a file first does.
    @Test func aScanOptionFirstImpliesScan() throws {
        let folder = "\(testImages)/isbn"
        let explicit = try isbnscan(["scan", "-r", "--json", "-j", "1", folder])
        let implied = try isbnscan(["-r", "--json", "-j", "1", folder])
        #expect(implied.status == explicit.status)
        #expect(implied.stdout == explicit.stdout)
        #expect(implied.stdout.split(separator: "\n").count >= 25)
        // A scan option's usage error is scan's.
        let wrong = try isbnscan(["--effort", "slow", folder])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.hasSuffix("See 'isbnscan scan --help'.\n"))
        // Not a scan option: no scan.
        let unknown = try isbnscan(["--frobnicate", folder])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("Error: unknown option '--frobnicate'\n"))
    }

    /// `isbnscan -` reads standard input, as `isbnscan scan -` does.
    @Test func standardInputFirstImpliesScan() throws {
        let implied = try isbnscan(["-"], stdinFile: "\(testImages)/isbn/png-gray8.png")
        #expect(implied.status == 0)
        #expect(implied.stdout == "9780306406157\n")
    }

    /// A missing file whose name looks like a file's (an image's ending, or a `/`) is scanned, so
    /// `scan` says it is missing (status 1), as `isbnscan scan photo.jpg` does; any other name
    /// that is no subcommand and no file is a usage error.
    @Test func aMissingFileIsScannedWhenItsNameLooksLikeAFile() throws {
        let empty = try Shelf([:])
        defer { empty.remove() }
        for name in ["back-cover.jpg", "SCAN.PNG", "photo.heic", "photos/back.jpg", "./scan"] {
            let implied = try isbnscan([name], in: empty.path)
            let explicit = try isbnscan(["scan", name], in: empty.path)
            #expect(implied.status == 1, "\(name)")
            #expect(implied.stdout == "")
            #expect(implied.stderr == "Error: \(name): no such file\n", "\(name)")
            #expect(explicit.status == implied.status && explicit.stderr == implied.stderr, "\(name)")
        }
        let notes = try isbnscan(["notes.txt"], in: empty.path)
        #expect(notes.status == 2)
        #expect(notes.stderr == """
            Error: unknown subcommand 'notes.txt', and no file or folder of that name
            Usage: isbnscan <subcommand> [options]
              See 'isbnscan --help'.

            """)
        let typo = try isbnscan(["scna"], in: empty.path)
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("Error: unknown subcommand 'scna' (did you mean 'scan'?)\n"))
        // The rule as --help and the man page state it.
        #expect(try isbnscan(["--help"]).stdout.contains("\n         with a '/' or an image's ending (.jpg, .png...: scan then says the\n"))
        #expect(try isbnscan(["help", "--man"]).stdout.contains("\n.PP\nWhen the first argument is a scan option, '\\-' (standard input), "
            + "an existing file or folder that is not a subcommand's name, or a name with a '/' or an image's ending (.jpg, .png...: "
            + "scan then says the file is missing, status 1), 'scan' is implied, as with zbarimg: isbnscan photo.jpg, isbnscan \\-r \\-\\-csv photos/.\n"))
        // A subcommand's name wins over a file of that name.
        let shelf = try Shelf(["help": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let help = try isbnscan(["help"], in: shelf.path)
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        #expect(try isbnscan(["scan", "./help"], in: shelf.path).stdout == "9780306406157\n")
    }

    /// The repository's root (README.md, Documentation/).
    static let repository = "\(testImages)/.."

    /// The option names the option table of `command`'s user guide (Documentation/<command>.md)
    /// lists: each row's first cell, every backquoted `--long` / `-s` in it.
    static func guideOptions(of command: String) throws -> (long: Set<String>, short: Set<Character>) {
        let guide = try String(contentsOfFile: "\(repository)/Documentation/\(command).md", encoding: .utf8)
        var long: Set<String> = [], short: Set<Character> = []
        for line in guide.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.replacingOccurrences(of: "\\|", with: "/").split(separator: "|")[0]
            for (index, piece) in cell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                let name = piece.split(separator: " ")[0]
                if name.hasPrefix("--") { long.insert(String(name.dropFirst(2))) }
                else if name.hasPrefix("-"), name.count == 2 { short.insert(name.last!) }
            }
        }
        return (long, short)
    }

    /// The option names `isbnscan <command> --help` (`--help-all` where `--help` is the short
    /// form) lists under OPTIONS.
    static func helpOptions(of command: String) throws -> (long: Set<String>, short: Set<Character>) {
        let help = try isbnscan([command, ISBNScanCommand.specs[command]?.brief == nil ? "--help" : "--help-all"]).stdout
        let start = try #require(help.range(of: "\nOPTIONS:\n"))
        var long: Set<String> = [], short: Set<Character> = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard line.hasPrefix("  -") else { continue }
            // The option column: names and their <value>, up to the first word of the description.
            for word in line.split(separator: " ").prefix(while: { $0.hasPrefix("-") || $0.hasPrefix("<") }) {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                if name.hasPrefix("--") { long.insert(String(name.dropFirst(2))) }
                else if name.hasPrefix("-"), name.count == 2 { short.insert(name.last!) }
            }
        }
        return (long, short)
    }

    /// Every option of every subcommand (the parser's option tables, which --help prints and
    /// the man page is generated from) has a row in the option table of that subcommand's user
    /// guide, the guide lists no other, and the man page names each. `-h, --help`, which every
    /// subcommand takes, is described once in README.
    @Test(arguments: ["scan", "validate", "camera", "devices"])
    func helpManPageAndGuideListTheSameOptions(command: String) throws {
        let spec = try #require(ISBNScanCommand.specs[command])
        let table = (long: Set(spec.options.map(\.long)), short: Set(spec.options.compactMap(\.short)))
        let help = try Self.helpOptions(of: command)
        #expect(help.long == table.long.union(Documentation.helpOptions(of: spec).map(\.long)))
        #expect(help.short == table.short.union(["h"]))
        let guide = try Self.guideOptions(of: command)
        #expect(table.long.subtracting(guide.long).isEmpty, "Documentation/\(command).md lacks \(table.long.subtracting(guide.long).sorted())")
        #expect(guide.long.subtracting(table.long).isEmpty, "Documentation/\(command).md has \(guide.long.subtracting(table.long).sorted()), unknown to --help")
        #expect(guide.short == table.short)
        let man = try isbnscan(["help", "--man"]).stdout
        for long in guide.long { #expect(man.contains("\\fB\\-\\-\(long.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "man page lacks --\(long)") }
    }

    /// The subcommands whose guide describes options in its prose (catalog's table is of its
    /// actions): every option `--help` lists is named, backquoted, in the guide and in the man page.
    @Test(arguments: ["catalog", "lookup", "ranges"])
    func guideAndManPageNameEveryOption(command: String) throws {
        let spec = try #require(ISBNScanCommand.specs[command])
        let help = try Self.helpOptions(of: command)
        #expect(help.long == Set(spec.options.map(\.long)).union(["help"]))
        let guide = try String(contentsOfFile: "\(Self.repository)/Documentation/\(command).md", encoding: .utf8)
        let man = try isbnscan(["help", "--man"]).stdout
        for option in spec.options {
            #expect(guide.contains("`--\(option.long)"), "Documentation/\(command).md does not name --\(option.long)")
            #expect(man.contains("\\fB\\-\\-\(option.long.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "man page lacks --\(option.long)")
        }
    }

    /// The Quick start says what its first command costs (a build of minutes, shared by the
    /// make targets that run the tool) and that step 2's photo is the reader's own; the bundled
    /// photo it points to exists and gives the ISBN it says.
    @Test func quickStartSaysHowLongTheBuildTakesAndWhosePhotoStepTwoReads() throws {
        let readme = try String(contentsOfFile: "\(Self.repository)/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "## Quick start\n"))
        let quickStart = String(readme[start.upperBound...]).components(separatedBy: "\n## ")[0]
        #expect(quickStart.contains("# 1. build (about 3 minutes) and install"))
        #expect(quickStart.contains("The first build takes about 3 minutes on two cores"))
        #expect(quickStart.contains("(`make scan`, `make try-camera`) use that same binary"))
        #expect(quickStart.contains("isbnscan my-book.jpg                                # 2. your photo of a book's back: prints its ISBN\n"))
        #expect(!quickStart.contains("back-cover.jpg"))
        #expect(quickStart.contains("(`isbnscan TestImages/isbn/png-gray8.png` prints 9780306406157)"))
        #expect(try isbnscan(["\(testImages)/isbn/png-gray8.png"]).stdout == "9780306406157\n")
    }

    /// README is a first screen: at most 300 lines, a five-command quick start in the first 40,
    /// a section with an example for every subcommand (and one named for the catalogue), and
    /// links that lead to files that exist (a guide per subcommand among them).
    @Test func readmeIsAFirstScreenThatLinksTheGuides() throws {
        let readme = try String(contentsOfFile: "\(Self.repository)/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300, "README has \(lines.count) lines")
        let start = try #require(lines.firstIndex(of: "## Quick start"))
        let commands = lines[start..<min(lines.count, 40)].filter { $0.hasPrefix("make install") || $0.hasPrefix("isbnscan ") }
        #expect(commands.count == 5, "\(commands)")
        for command in ISBNScanCommand.subcommands where command != "catalog" {
            #expect(readme.contains("\n### \(command)\n"), "README has no '### \(command)' section")
            #expect(readme.contains("$ isbnscan \(command)"), "README has no example of \(command)")
        }
        #expect(lines.contains { $0.hasPrefix("### ") && $0.lowercased().contains("catalogue") })
        #expect(readme.contains("$ isbnscan catalog list --db "))
        var linked: Set<String> = []
        var rest = Substring(readme)
        while let open = rest.range(of: "](") {
            let target = rest[open.upperBound...].prefix { $0 != ")" }
            rest = rest[open.upperBound...]
            guard !target.hasPrefix("http") else { continue }
            let file = String(target.split(separator: "#", maxSplits: 1).first ?? "")
            linked.insert(file)
            #expect(FileManager.default.fileExists(atPath: "\(Self.repository)/\(file)"), "README links \(file), which is missing")
        }
        for command in ISBNScanCommand.subcommands where command != "help" {
            #expect(linked.contains("Documentation/\(command).md"), "README does not link the guide of \(command)")
        }
    }

    /// `--version` names the commit the build was given (make: ISBNSCAN_COMMIT, from git
    /// describe), and only the version without one (a plain `swift build`, a tarball).
    @Test func versionIsPrintedWithTheCommitBuiltFrom() throws {
        let given = ProcessInfo.processInfo.environment["ISBNSCAN_COMMIT"] ?? ""
        #expect(ISBNScanCommand.commit == given)
        let run = try isbnscan(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == (given.isEmpty ? "isbnscan 0.2.0\n" : "isbnscan 0.2.0 (commit \(given))\n"))
    }

    @Test func parserHandlesBundlesEqualsAndDoubleDash() throws {
        let spec = CommandSpec(name: "t", abstract: "", usage: "", arguments: [], options: [
            OptionSpec("quiet", short: "q", help: ""), OptionSpec("all", short: "a", help: ""),
            OptionSpec("jobs", short: "j", value: "n", help: ""), OptionSpec("roi", value: "r", help: ""),
        ], discussion: "")
        let parsed = try ArgumentParser.parse(["-qa", "-j4", "--roi=-0.1,0,1,1", "file", "--", "--all", "-"], spec: spec)
        #expect(parsed.flags == ["quiet", "all"])
        #expect(parsed.value("jobs") == "4")
        #expect(parsed.value("roi") == "-0.1,0,1,1")
        #expect(parsed.positionals == ["file", "--all", "-"])
        #expect(try ArgumentParser.parse(["-j", "2"], spec: spec).value("jobs") == "2")
    }
}
