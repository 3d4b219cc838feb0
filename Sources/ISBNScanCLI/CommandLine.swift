// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
internal import CBuildInfo
import Batch
import Imaging

/// The `isbnscan` command line: dispatches to a subcommand and returns the exit status.
///
/// Results go to `stdout`, diagnostics (`Error:`, `Warning:`, summaries) to `stderr`.
public enum ISBNScanCommand {
    public static let version = "0.2.0"

    /// The git commit this binary was built from (`git describe`: 12 hex digits, "-modified"
    /// when tracked files differed), or "" for a build outside a git checkout or without make.
    public static let commit = String(cString: isc_build_commit())

    /// What `--version` prints: `isbnscan 0.2.0`, and `(commit 402a2df521b3)` when known.
    public static var versionLine: String {
        "isbnscan \(version)" + (commit.isEmpty ? "" : " (commit \(commit))")
    }

    static let overview = """
    OVERVIEW: Read book barcodes (EAN-13 ISBNs) from photos and scans.

    isbnscan finds EAN-13 and EAN-8 barcodes with zbar (and, for hard photos, recovery
    passes and a line decoder of its own) and keeps only valid ISBN-13s:
    13 digits, prefix 978, correct check digit. It says why any other code was refused.

    USAGE: isbnscan <subcommand> [options]
           isbnscan [scan options] <file-or-folder> ...
             (when the first argument is a scan option, '-' (standard input), an
             existing file or folder that is not a subcommand's name, or a name
             with a '/' or an image's ending (.jpg, .png...: scan then says the
             file is missing, status 1), 'scan' is implied, as with zbarimg:
             isbnscan photo.jpg, isbnscan -r --csv photos/)

    SUBCOMMANDS:
      scan                    Read the barcodes in image files (JPEG, PNG, HEIC, TIFF,
                              WebP, GIF, BMP, PGM/PPM) and folders of them, in parallel.
      validate                Check ISBNs typed by hand (ISBN-13 or ISBN-10).
      camera                  Hold a book up to a webcam (V4L2) and print its ISBN.
      devices                 List the video devices (/dev/video*) and their formats.
      catalog                 List, export, count, merge or correct a catalogue
                              made with 'scan --db' (SQLite).
      lookup                  Look up books by ISBN (Open Library, Google Books,
                              NDL Search): title, authors, publisher, year.
      ranges                  Show or update the ISBN range message (hyphenation).
      help [<subcommand>]     Show help for isbnscan or one subcommand.

    OPTIONS:
      -h, --help              Show this help.
      --version               Show the version and the git commit built from.

    EXAMPLES:
      isbnscan scan photo.jpg                 print the ISBN in a photo
      isbnscan scan -r --csv -o books.csv photos/
                                              every photo in a folder tree, to a CSV file
      isbnscan scan --roi 0.05,0.4,0.9,0.15 photo.jpg
                                              scan only a band across the middle
      isbnscan validate 0-306-40615-2         check a typed ISBN-10
      isbnscan camera --continuous            catalogue a shelf with the webcam
      isbnscan lookup 978-4-04-893065-9       the book behind an ISBN

    See 'isbnscan help <subcommand>' for details.

    """

    /// Runs `isbnscan` with `arguments` (without the program name). `raw`, when given, holds
    /// the same arguments as the bytes the kernel passed (argv), so that file names which are
    /// not UTF-8 still open.
    public static func run(_ arguments: [String], raw: [[UInt8]]? = nil, stdout: TextSink, stderr: TextSink) -> ExitStatus {
        guard let first = arguments.first else {
            stderr.write(overview)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        let rawRest = raw.map { Array($0.dropFirst()) }
        switch first {
        case "-h", "--help":
            stdout.write(overview)
            return .success
        case "--version":
            stdout.write(versionLine + "\n")
            return .success
        case "help" where rest.first == "--man" || rest.first == "--completions":
            // Hidden: the man page and shell completions, generated for `make install` / `make deb`.
            return Documentation.run(rest, stdout: stdout, stderr: stderr)
        case "help":
            guard let name = rest.first else { stdout.write(overview); return .success }
            // `help help` and `help --help` (or `-h`): help's own help is the overview, as
            // `<subcommand> --help` is that subcommand's.
            if name == "help" || name == "--help" || name == "-h" { stdout.write(overview); return .success }
            guard let spec = specs[name] else {
                return usageError(Suggestion.appended(to: "unknown subcommand '\(name)'", typed: name, in: subcommands),
                                  command: nil, stderr: stderr)
            }
            // The same text as `isbnscan <name> --help`.
            stdout.write(ArgumentParser.help(for: withHelpOption(spec)))
            return .success
        case "scan":
            return scan(rest, raw: rawRest, stdout: stdout, stderr: stderr)
        case "validate":
            return runSubcommand(ValidateCommand.spec, rest, raw: rawRest, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
                try ValidateCommand.run(parsed, stdout: stdout, stderr: stderr)
            }
        case "camera":
            return runSubcommand(CameraCommand.spec, rest, raw: rawRest, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
                try CameraCommand.run(parsed, stdout: stdout, stderr: stderr)
            }
        case "catalog":
            return runSubcommand(CatalogCommand.spec, rest, raw: rawRest, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
                try CatalogCommand.run(parsed, stdout: stdout, stderr: stderr)
            }
        case "lookup":
            return runSubcommand(LookupCommand.spec, rest, raw: rawRest, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
                try LookupCommand.run(parsed, stdout: stdout, stderr: stderr)
            }
        case "ranges":
            return runSubcommand(RangesCommand.spec, rest, raw: rawRest, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
                try RangesCommand.run(parsed, stdout: stdout, stderr: stderr)
            }
        case "devices":
            return runSubcommand(DevicesCommand.spec, rest, raw: rawRest, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
                try DevicesCommand.run(parsed, stdout: stdout, stderr: stderr)
            }
        default:
            let rawArguments = raw ?? arguments.map { Array($0.utf8) }
            // `isbnscan photo.jpg`, as zbarimg users type it: an existing file or folder first
            // means `scan`; so does `-`, standard input (`cat photo.jpg | isbnscan -`).
            if first == "-" || (!first.hasPrefix("-") && isFileOrFolder(rawArguments[0])) {
                return scan(arguments, raw: raw, stdout: stdout, stderr: stderr)
            }
            if first.hasPrefix("-") {
                // `isbnscan -r photos/`, as zbarimg users type options first: a scan option first
                // means `scan` too.
                let long = first.hasPrefix("--") ? String(first.dropFirst(2).prefix { $0 != "=" }) : nil
                let scanOption = first.count > 1 && ScanCommand.spec.options.contains { option in
                    long.map { option.long == $0 } ?? (option.short == first.dropFirst().first)
                }
                if scanOption { return scan(arguments, raw: raw, stdout: stdout, stderr: stderr) }
                let known = ["help", "version"] + ScanCommand.spec.options.map(\.long)
                return usageError(long.map { Suggestion.appended(to: "unknown option '\(first)'", typed: $0, in: known, prefix: "--") }
                                      ?? "unknown option '\(first)'", command: nil, stderr: stderr)
            }
            // A name that looks like a file's (a `/`, or the ending of an image isbnscan reads) is
            // one that is missing: `scan` says so (`Error: photo.jpg: no such file`, status 1)
            // rather than calling it an unknown subcommand.
            if looksLikeFileName(first) { return scan(arguments, raw: raw, stdout: stdout, stderr: stderr) }
            if first.contains(".") {
                return usageError("unknown subcommand '\(first)', and no file or folder of that name", command: nil, stderr: stderr)
            }
            return usageError(Suggestion.appended(to: "unknown subcommand '\(first)'", typed: first, in: subcommands),
                              command: nil, stderr: stderr)
        }
    }

    private static func scan(_ arguments: [String], raw: [[UInt8]]?, stdout: TextSink, stderr: TextSink) -> ExitStatus {
        runSubcommand(ScanCommand.spec, arguments, raw: raw, stdout: stdout, stderr: stderr) { (parsed) throws(UsageError) -> ExitStatus in
            try ScanCommand.run(parsed, stdout: stdout, stderr: stderr, isTerminal: isTerminal(stderr))
        }
    }

    /// Whether `name` reads as a path rather than a subcommand: it holds a `/`, or ends in the
    /// extension of an image format isbnscan reads (``BatchScanner/imageExtensions``, any case).
    static func looksLikeFileName(_ name: String) -> Bool {
        if name.contains("/") { return true }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return BatchScanner.imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Whether `bytes` names an existing regular file or folder (stat(2), links followed).
    static func isFileOrFolder(_ bytes: [UInt8]) -> Bool {
        var info = stat()
        guard RawPath(bytes: bytes).withCString({ stat($0, &info) }) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `sink` writes to a terminal (progress bars only go there).
    static func isTerminal(_ sink: TextSink) -> Bool {
        guard let sink = sink as? FileDescriptorSink else { return false }
        return isatty(sink.fd) == 1
    }

    /// Every subcommand's name, in the order of the overview.
    static let subcommands = ["scan", "validate", "camera", "devices", "catalog", "ranges", "help"]

    static let specs: [String: CommandSpec] = ["scan": ScanCommand.spec, "validate": ValidateCommand.spec,
                                               "camera": CameraCommand.spec, "devices": DevicesCommand.spec,
                                               "catalog": CatalogCommand.spec, "ranges": RangesCommand.spec,
                                               "lookup": LookupCommand.spec]

    /// `spec` with `-h, --help` (and `--help-all` for a subcommand with a short help) added to
    /// its options: what `<subcommand> --help` and `help <subcommand>` print, and what the
    /// parser accepts.
    static func withHelpOption(_ spec: CommandSpec) -> CommandSpec {
        CommandSpec(name: spec.name, abstract: spec.abstract, usage: spec.usage, arguments: spec.arguments,
                    options: spec.options + Documentation.helpOptions(of: spec), discussion: spec.discussion, brief: spec.brief)
    }

    private static func runSubcommand(_ spec: CommandSpec, _ arguments: [String], raw: [[UInt8]]?,
                                      stdout: TextSink, stderr: TextSink,
                                      body: (ParsedArguments) throws(UsageError) -> ExitStatus) -> ExitStatus {
        let withHelp = withHelpOption(spec)
        do {
            let parsed = try ArgumentParser.parse(arguments, raw: raw, spec: withHelp)
            if parsed.flag("help-all") {
                stdout.write(ArgumentParser.help(for: withHelp, all: true))
                return .success
            }
            if parsed.flag("help") {
                stdout.write(ArgumentParser.help(for: withHelp))
                return .success
            }
            return try body(parsed)
        } catch {
            return usageError(error.message, command: spec, stderr: stderr)
        }
    }

    static func usageError(_ message: String, command: CommandSpec?, stderr: TextSink) -> ExitStatus {
        stderr.write("Error: \(message)\n")
        if let command {
            stderr.write("Usage: \(command.usage)\n  See 'isbnscan \(command.name) --help'.\n")
        } else {
            stderr.write("Usage: isbnscan <subcommand> [options]\n  See 'isbnscan --help'.\n")
        }
        return .usage
    }
}
