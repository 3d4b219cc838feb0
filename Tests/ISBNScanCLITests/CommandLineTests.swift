import Foundation
import Testing
@testable import ISBNScanCLI

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
        (["scan"], "Error: no image file or folder given"),
        (["scan", "-j", "0", "x.png"], "Error: --jobs 0 is outside 1...256"),
        (["scan", "--json", "--csv", "x.png"], "Error: give either --json or --csv, not both"),
        (["scan", "-", "-"], "Error: '-' (standard input) can be given only once"),
        (["scan", "-o", "", "x.png"], "Error: --output needs a file name"),
        (["scan", "--roi", "0,0,1e-300,1", "x.png"], "Error: --roi: width must be at least 0.001"),
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

    @Test func scanHelpDocumentsExitStatusesAndOptions() throws {
        let help = try isbnscan(["scan", "--help"]).stdout
        for text in ["USAGE: isbnscan scan", "--roi <x,y,w,h>", "--roi-avfoundation", "--all", "--addons", "--json",
                     "--max-pixels <n>", "-q, --quiet", "EXIT STATUS:", "4    every input was read",
                     "-r, --recursive", "--hidden", "-j, --jobs <n>", "--csv", "--unique", "-o, --output <file>",
                     "130  interrupted", "FOLDERS:", "file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,price"] {
            #expect(help.contains(text), "help lacks \(text)")
        }
    }

    @Test func versionIsPrinted() throws {
        #expect(try isbnscan(["--version"]).stdout == "isbnscan \(ISBNScanCommand.version)\n")
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
