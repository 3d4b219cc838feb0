// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `TestImages/` of this checkout, found from this file's path (every test target's one
/// definition).
public let testImages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestImages").path

/// The shared corpus of real photos: `../shared/corpus/` beside the checkout (as CI lays it
/// out), or the folder named by the environment variable `ISBNSCAN_CORPUS`.
public let sharedCorpus = ProcessInfo.processInfo.environment["ISBNSCAN_CORPUS"].flatMap { $0.isEmpty ? nil : $0 }
    ?? URL(fileURLWithPath: testImages).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus").path

/// Image files in `folder` (relative to `root`, TestImages by default) that have a sibling
/// `.txt`, with its text: the cases of a fixture loop. A missing folder gives none, so each
/// folder's count is checked on its own (``imageNames(in:root:)``).
public func fixtures(_ folder: String, root: String = testImages) -> [(file: String, expected: String)] {
    let directory = "\(root)/\(folder)"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.sorted().compactMap { name in
        guard !name.hasSuffix(".txt"), !name.hasSuffix(".md") else { return nil }
        let stem = (name as NSString).deletingPathExtension
        guard let text = try? String(contentsOfFile: "\(directory)/\(stem).txt", encoding: .utf8) else { return nil }
        return ("\(folder)/\(name)", text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The names of the images in `folder` (every file but `.txt` and `.md`), sorted.
///
/// - Throws: Foundation's error when the folder does not exist or cannot be read.
public func imageNames(in folder: String, root: String = testImages) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)").sorted()
        .filter { !$0.hasSuffix(".txt") && !$0.hasSuffix(".md") }
}
