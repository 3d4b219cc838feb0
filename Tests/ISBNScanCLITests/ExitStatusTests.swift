// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import ISBNScanCLI
import TestSupport

/// Statuses 1 (an input could not be read) and 3 (the results could not be written) apart,
/// and a closed pipe on stdout.
@Suite struct ExitStatusTests {
    /// Runs `isbnscan` with stdout on a pipe whose read end is already closed (the reader has
    /// gone, as `| head -n 1` leaves it): every write fails with EPIPE, or kills with SIGPIPE.
    func runIntoClosedPipe(_ arguments: [String]) throws -> (reason: Process.TerminationReason, status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = arguments
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let errPath = NSTemporaryDirectory() + "isbnscan-pipe-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = pipe.fileHandleForWriting
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        try err.close()
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        return (process.terminationReason, process.terminationStatus, text)
    }

    @Test func aClosedPipeEndsTheRunQuietlyWithStatus3() throws {
        let run = try runIntoClosedPipe(["scan", "--json", "\(testImages)/isbn/png-gray8.png"])
        #expect(run.reason == .exit)  // not killed by SIGPIPE (status 141 in a shell)
        #expect(run.status == 3)
        #expect(run.stderr == "")
    }

    @Test func aClosedPipeStopsAFolderScanEarly() throws {
        let run = try runIntoClosedPipe(["scan", "-j", "1", "\(testImages)/isbn"])
        #expect(run.reason == .exit)
        #expect(run.status == 3)
        #expect(!run.stderr.contains("Error:"))
        // 22 images in the folder; the run stops after the first result could not be written
        // (files already queued or in flight still finish: 5 in one run here).
        let scanned = run.stderr.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        #expect(run.stderr.hasPrefix("scanned "))
        #expect((scanned ?? 99) <= 11)
    }

    @Test func anUnreadableInputWithResultsWrittenIs1AndAFailedOutputIs3() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.jpg": "corrupt/truncated-header.png"])
        defer { shelf.remove() }
        let csv = shelf.path + "/books.csv"
        let written = try isbnscan(["scan", "-q", "--csv", "-o", csv, "\(shelf.path)/a.png", "\(shelf.path)/b.jpg"])
        #expect(written.status == 1)
        #expect(try String(contentsOfFile: csv, encoding: .utf8).hasPrefix("file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,price,page,warning,c_code\r\n\(shelf.path)/a.png,9780306406157,"))

        let full = try isbnscan(["scan", "-q", "-o", "/dev/full", "\(shelf.path)/a.png", "\(shelf.path)/b.jpg"])
        #expect(full.status == 3)
        #expect(full.stderr.hasSuffix("Error: /dev/full: cannot write the output file: write failed: No space left on device\n"))

        let nowhere = try isbnscan(["scan", "-o", "\(shelf.path)/missing/books.csv", "\(shelf.path)/a.png"])
        #expect(nowhere.status == 3)
    }

    /// Interruption messages name the stop signals (CSignals' names, shared with Capture's error
    /// text) and give any other signal's number.
    @Test func signalsAreNamedForMessages() {
        #expect(signalName(SIGINT) == "SIGINT" && signalName(SIGTERM) == "SIGTERM")
        #expect(signalName(SIGHUP) == "signal \(SIGHUP)")
    }
}
