import Foundation
import Testing

/// `TestImages/` of this checkout, found from this file's path.
let testImages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestImages").path

/// The shared corpus of real photos: `../shared/corpus/` beside the checkout (as CI lays it
/// out), or the folder named by the environment variable `ISBNSCAN_CORPUS`.
let sharedCorpus = ProcessInfo.processInfo.environment["ISBNSCAN_CORPUS"].flatMap { $0.isEmpty ? nil : $0 }
    ?? URL(fileURLWithPath: testImages).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus").path

/// Image files in `folder` (relative to TestImages) that have a sibling `.txt`, with its text.
func fixtures(_ folder: String, root: String = testImages) -> [(file: String, expected: String)] {
    let directory = "\(root)/\(folder)"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.sorted().compactMap { name in
        guard !name.hasSuffix(".txt"), !name.hasSuffix(".md") else { return nil }
        let stem = (name as NSString).deletingPathExtension
        guard let text = try? String(contentsOfFile: "\(directory)/\(stem).txt", encoding: .utf8) else { return nil }
        return ("\(folder)/\(name)", text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Bytes this thread has read from files so far (`rchar` of `/proc/thread-self/io`, which
/// counts `read` and `pread`): a scan runs on the calling thread, so tests running meanwhile
/// on other threads do not count.
func bytesReadByThisThread() throws -> Int {
    let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
    return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
}
