// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import ISBN
import Records

/// `isbnscan ranges [update FILE]`: which ISBN range message hyphenates, and replacing it.
enum RangesCommand {
    static let spec = CommandSpec(
        name: "ranges",
        abstract: "Show or replace the ISBN range message used for hyphenation.",
        usage: "isbnscan ranges [update <file>|-]",
        arguments: [("update <file>", """
            Check <file> (RangeMessage.xml from the International ISBN
            Agency, isbn-international.org) and, if it is a usable range
            message, copy it to the user's data folder, where it replaces
            the copy built into isbnscan. A file that fails the checks (an
            HTML error page; a truncated download, reported as
            'truncated: ...') changes nothing. '-' reads the message from
            standard input: curl -s URL | isbnscan ranges update -
            """)],
        options: [],
        discussion: """
        The range message gives the length of each part of an ISBN, hence its
        hyphenated form (978-4-87311-903-8) and its registration group (978-4,
        Japan). isbnscan uses $XDG_DATA_HOME/isbnscan/RangeMessage.xml
        (default ~/.local/share/isbnscan/RangeMessage.xml) when it exists and
        parses, else the copy built in. 'update' also writes
        RangeMessage.table beside it, the message as a compact table that
        later runs read instead of parsing the XML (a table not made from
        the XML as it is now is ignored).

        OUTPUT:
          ranges: '<where>: serial <serial>, <date>, <n> registration groups'
          update: 'installed <copy>: serial <serial>, <date>, <n> registration
          groups'; refused: 'Error: <file>: not a usable range message:
          <why>; the range message in use is unchanged' (<file> 'standard
          input' for '-')

        EXIT STATUS:
          0  shown, or updated
          1  the file could not be read or is no usable range message, or
             the copy could not be written
          2  usage error
        """)

    /// `$XDG_DATA_HOME/isbnscan/RangeMessage.xml`, `XDG_DATA_HOME` defaulting to `~/.local/share`
    /// (XDG Base Directory Specification); `nil` when neither it nor `HOME` is set.
    static var userCopyPath: String? {
        if let data = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), data.hasPrefix("/") {
            return data + "/isbnscan/RangeMessage.xml"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/share/isbnscan/RangeMessage.xml"
    }

    /// The range message in use and where it came from: the user's copy when it exists and
    /// parses (else a warning on `stderr`), or the bundled one.
    static func load(stderr: TextSink?) -> (ranges: RangeMessage, source: String) {
        if let path = userCopyPath, access(path, F_OK) == 0 {
            if let ranges = readTable(of: path) { return (ranges, path) }
            do {
                return (try RangeMessage(xml: try readFile(path)), path)
            } catch {
                stderr?.write("Warning: \(escaped(path, json: false)): \(error); using the range message built into isbnscan\n")
            }
        }
        return (RangeMessage.bundled, "built-in copy")
    }

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink) throws(UsageError) -> ExitStatus {
        switch parsed.positionals.count {
        case 0:
            let (ranges, source) = load(stderr: stderr)
            stdout.write(describe(ranges, source: source) + "\n")
            return .found
        case 2 where parsed.positionals[0] == "update":
            return update(from: parsed.positionals[1], stdout: stdout, stderr: stderr)
        default:
            throw UsageError(parsed.positionals[0] == "update" ? "update needs one file" : "unexpected argument '\(parsed.positionals[0])'")
        }
    }

    static func describe(_ ranges: RangeMessage, source: String) -> String {
        "\(escaped(source, json: false)): serial \(ranges.serialNumber ?? "(none)"), \(ranges.date), \(ranges.groupCount) registration groups"
    }

    /// Checks the range message in `file` (`-`: standard input, `standardInput`) and installs it.
    static func update(from file: String, stdout: TextSink, stderr: TextSink, standardInput: Int32 = 0) -> ExitStatus {
        let shown = file == "-" ? "standard input" : escaped(file, json: false)
        let ranges: RangeMessage
        let text: String
        do {
            text = file == "-" ? try readAll(standardInput, name: "standard input") : try readFile(file)
        } catch {
            stderr.write("Error: \(error)\n")
            return .inputError
        }
        do {
            ranges = try RangeMessage(xml: text)
        } catch {
            stderr.write("Error: \(shown): not a usable range message: \(error); the range message in use is unchanged\n")
            return .inputError
        }
        guard let target = userCopyPath else {
            stderr.write("Error: neither XDG_DATA_HOME nor HOME is set: nowhere to keep the range message\n")
            return .inputError
        }
        do {
            try makeFolders(for: target)
            let sink = try AtomicFileSink(path: target)
            sink.write(text)
            try sink.commit()
        } catch {
            stderr.write("Error: \(error)\n")
            return .inputError
        }
        do {
            try writeTable(of: ranges, for: target)
        } catch {
            // The message is installed all the same; only its parsing is repeated by each run.
            stderr.write("Warning: \(error); every run will parse \(escaped(target, json: false)) instead\n")
        }
        stdout.write("installed " + describe(ranges, source: target) + "\n")
        return .found
    }

    /// The compact table kept beside the user's copy `copy` (`RangeMessage.table` in its folder):
    /// ``RangeMessage/compactForm`` after a header naming the XML file it was made from.
    static func tablePath(of copy: String) -> String {
        (copy.hasSuffix(".xml") ? String(copy.dropLast(4)) : copy) + ".table"
    }

    /// The first line of a table file.
    static let tableHeader = Array("isbnscan: compact table of the range message beside it\n".utf8)

    /// What identifies the XML file a table was made from: device, inode, size, modification and
    /// status-change times (the rename that installed it sets the latter). Any edit, copy or
    /// replacement of the XML changes one of them, and the table is then not used.
    static func identity(of path: String) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let fields: [UInt64] = [UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_size),
                                UInt64(bitPattern: Int64(info.st_mtim.tv_sec)), UInt64(info.st_mtim.tv_nsec),
                                UInt64(bitPattern: Int64(info.st_ctim.tv_sec)), UInt64(info.st_ctim.tv_nsec)]
        return fields.flatMap { field in (0..<8).map { UInt8(truncatingIfNeeded: field >> (8 * $0)) } }
    }

    /// Writes the table of `ranges`, just installed at `copy`, beside it (atomically).
    static func writeTable(of ranges: RangeMessage, for copy: String) throws(OutputError) {
        let path = tablePath(of: copy)
        guard let identity = identity(of: copy) else {
            throw OutputError(path: path, cause: "cannot read what \(escaped(copy, json: false)) is: \(String(cString: strerror(errno)))")
        }
        let sink = try AtomicFileSink(path: path)
        sink.write(bytes: tableHeader + identity + ranges.compactForm)
        try sink.commit()
    }

    /// The message from the table beside `copy`, when there is one made from `copy` as it is
    /// now and it reads back whole; else `nil` (the XML is then parsed, and nothing is written:
    /// only `ranges update` writes the table).
    static func readTable(of copy: String) -> RangeMessage? {
        guard let identity = identity(of: copy) else { return nil }
        let fd = open(tablePath(of: copy), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let bytes = try? readAllBytes(fd, name: ""), bytes.starts(with: tableHeader + identity) else { return nil }
        return try? RangeMessage(compactForm: Array(bytes[(tableHeader.count + identity.count)...]))
    }

    /// The folders above `path`, created as needed (mode 0755).
    static func makeFolders(for path: String) throws(FileError) {
        var folder = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        for part in parts {
            folder += "/" + part
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw FileError("\(escaped(folder, json: false)): cannot create the folder: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The whole file as UTF-8 text (read(2)).
    static func readFile(_ path: String) throws(FileError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("\(escaped(path, json: false)): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        return try readAll(fd, name: escaped(path, json: false))
    }

    /// The largest range message read or installed, in bytes.
    static let maxBytes = 4 << 20

    /// Everything `fd` holds up to end of file, as UTF-8 text; `name` goes into errors.
    static func readAll(_ fd: Int32, name: String) throws(FileError) -> String {
        String(decoding: try readAllBytes(fd, name: name), as: UTF8.self)
    }

    /// ``readAll(_:name:)`` as bytes.
    static func readAllBytes(_ fd: Int32, name: String) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError("\(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes += buffer[0..<n]
            // The agency's message is about 220 KB; a file far larger is not one, and parsing it
            // would slow down every command that hyphenates.
            if bytes.count > maxBytes {
                throw FileError("\(name): larger than \(maxBytes >> 20) MiB, which no ISBN range message is (the agency's is about 220 KB)")
            }
        }
        return bytes
    }
}

/// A file that could not be read or a folder that could not be made.
struct FileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
