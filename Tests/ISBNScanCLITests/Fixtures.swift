// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The output of one run of the built `isbnscan` binary.
struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// The `isbnscan` binary built next to this test bundle.
let isbnscanBinary: String = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var directory = URL(fileURLWithPath: exe).deletingLastPathComponent()
    // The test runner lives in <bin>/isbnscanPackageTests.xctest (a file or a bundle folder).
    while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("isbnscan").path),
          directory.path != "/" {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("isbnscan").path
}()

/// Runs `isbnscan` with `arguments`, stdout and stderr kept apart.
/// `executable` replaces the binary (e.g. `/bin/sh` to pass argv bytes that are not UTF-8).
func isbnscan(_ arguments: [String], as user: String? = nil, stdinFile: String? = nil,
              environment: [String: String]? = nil, in directory: String? = nil, executable: String? = nil) throws -> Run {
    let process = Process()
    if let user {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        // The checkout may sit below a folder the other user cannot enter: run a copy from /tmp.
        let copy = NSTemporaryDirectory() + "isbnscan-as-\(user)-\(getpid())"
        if !FileManager.default.fileExists(atPath: copy) {
            try FileManager.default.copyItem(atPath: isbnscanBinary, toPath: copy)
            chmod(copy, 0o755)
        }
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", copy] + arguments
    } else {
        process.executableURL = URL(fileURLWithPath: executable ?? isbnscanBinary)
        process.arguments = arguments
    }
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    // Files rather than pipes: nothing can block on a full pipe, and both streams stay apart.
    let base = NSTemporaryDirectory() + "isbnscan-run-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
    _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
    defer {
        try? FileManager.default.removeItem(atPath: base + ".out")
        try? FileManager.default.removeItem(atPath: base + ".err")
    }
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".out"))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".err"))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = try stdinFile.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let outData = try Data(contentsOf: URL(fileURLWithPath: base + ".out"))
    let errData = try Data(contentsOf: URL(fileURLWithPath: base + ".err"))
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}
