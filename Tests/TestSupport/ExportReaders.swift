// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `Tests/ExportReaders/read_export.py` run with the venv `make test-deps` creates
/// (`.build/test-venv`, pybtex and rispy): an export read by the parser the program it is meant
/// for follows, what it saw as JSON.
public enum ExportReader {
    /// The venv's Python.
    public static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/test-venv/bin/python").path
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ExportReaders/read_export.py").path

    /// Whether the venv is there with pybtex and rispy (the tests that need them are skipped,
    /// saying so, when it is not).
    public static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run(["-c", "import pybtex, rispy"]).status) == 0
    }()

    /// What the script printed for `kind` (`bibtex`, `ris`, `csv`) reading `file`, parsed.
    /// - Throws: ``ReaderError`` with the parser's message when it refused the file.
    public static func read(_ kind: String, _ file: String) throws -> [String: Any] {
        let result = try run([script, kind, file])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw ReaderError(message: result.stderr)
        }
        return object
    }

    public struct ReaderError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stdout first, to its end: the script writes one line to stderr at most, which the pipe holds.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errorData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data, String(decoding: errorData, as: UTF8.self))
    }
}
