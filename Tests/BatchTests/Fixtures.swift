// SPDX-License-Identifier: Apache-2.0
import Foundation
import TestSupport

/// A fresh empty folder under the temporary directory, removed by `cleanup()`.
struct Scratch {
    let path: String
    init(_ name: String) throws {
        path = NSTemporaryDirectory() + "isbnscan-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    /// Copies a TestImages file to `name` (relative; folders created as needed).
    func copy(_ testImage: String, to name: String) throws {
        let destination = "\(path)/\(name)"
        try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(testImages)/\(testImage)", toPath: destination)
    }
    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }
    func folder(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: "\(path)/\(name)", withIntermediateDirectories: true)
    }
    func cleanup() {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        try? FileManager.default.removeItem(atPath: path)
    }
}
