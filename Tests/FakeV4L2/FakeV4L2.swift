// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The fake V4L2 device of the test suite (`Tests/FakeV4L2/fakev4l2.c`), compiled with `cc`
/// once per test process into a temporary folder that is removed when the process exits.
///
/// Two ways to use it: run `isbnscan` with `LD_PRELOAD` set to ``library`` (CLI tests), or
/// route the CV4L2 shim's system calls through it in-process with
/// `isc_v4l2_use_syscalls_from` (library tests). The C file's header lists its settings.
public enum FakeV4L2 {
    /// The C source, found from this file's path.
    public static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("fakev4l2.c").path

    /// This process's folder for the library and the tests' files, removed at exit.
    static let root: String = {
        let path = rootPath()
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FakeV4L2.rootPath()) }
        return path
    }()

    static func rootPath() -> String { NSTemporaryDirectory() + "fakev4l2-\(getpid())" }

    /// Path of the built `libfakev4l2.so`; the build error when `cc` failed.
    public static let built: Result<String, BuildError> = {
        let output = root + "/libfakev4l2.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-O2", "-shared", "-fPIC", "-o", output, source, "-ljpeg", "-lpng"]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = log
        do { try process.run() } catch { return .failure(BuildError(message: "cannot run cc: \(error)")) }
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return .failure(BuildError(message: "cc failed:\n\(text)")) }
        return .success(output)
    }()

    /// The built library's path; throws if it could not be compiled.
    public static func library() throws -> String { try built.get() }

    public struct BuildError: Error, CustomStringConvertible {
        public let message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }

    /// A temporary directory for one test (logs, a fake `/dev`).
    public static func temporaryDirectory() -> String {
        let path = root + "/test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
