import Foundation
import Testing

/// Bytes this thread has read from files so far (`rchar` of `/proc/thread-self/io`, which
/// counts `read` and `pread`): a scan runs on the calling thread, so tests running meanwhile
/// on other threads do not count.
func bytesReadByThisThread() throws -> Int {
    let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
    return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
}
