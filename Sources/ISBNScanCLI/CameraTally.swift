// SPDX-License-Identifier: Apache-2.0
import LiveScan

/// What a camera session printed: the ISBNs (for undo), duplicates, undone ones and unusable
/// frames; the summary lines and the exit status they lead to.
struct CameraTally {
    /// One ISBN printed: what undo needs to take it back.
    struct Printed: Equatable {
        var isbn13: String
        var frame: Int
        var time: String
        var recorded: Bool
    }
    private(set) var printed: [Printed] = []
    /// ISBNs printed again (a later visit of a book already printed in this session).
    private(set) var duplicates = 0
    private(set) var undone = 0
    var badFrames = 0

    /// ISBNs printed and not undone.
    var count: Int { printed.count }

    mutating func add(_ isbn13: String, frame: Int, time: String, recorded: Bool) {
        if printed.contains(where: { $0.isbn13 == isbn13 }) { duplicates += 1 }
        printed.append(Printed(isbn13: isbn13, frame: frame, time: time, recorded: recorded))
    }

    /// Takes the last ISBN printed out of the counts, and returns it (`nil`: nothing to undo).
    mutating func undoLast() -> Printed? {
        guard let last = printed.popLast() else { return nil }
        undone += 1
        if printed.contains(where: { $0.isbn13 == last.isbn13 }) { duplicates -= 1 }
        return last
    }

    /// The exit status of a session that ended with `end`: 1 when the camera failed or an ISBN
    /// could not be recorded (`catalogFailed`), 130 after a signal, else 0 when an ISBN was
    /// printed (even if undone since) and 4 when none was. q, Esc or closing the preview window
    /// (`stopped` with signal 0) is the user's way to end a session: a normal end, as --timeout.
    func exitStatus(_ end: CameraSession.End, catalogFailed: Bool) -> ExitStatus {
        if case .failed = end { return .inputError }
        if catalogFailed { return .inputError }
        if case .stopped(let signal) = end, signal != 0 { return .interrupted }
        return count + undone > 0 ? .found : .nothingFound
    }

    /// `camera: <n> frames in <s> s (<rate> frames/s, <ms> ms CPU per frame…), <n> ISBNs printed…`,
    /// and with `--continuous` the different ISBNs, duplicates and undone ones.
    func summaryLines(_ summary: CameraSession.Summary, settings s: CameraCommand.Settings) -> [String] {
        let frames = summary.frames, elapsed = summary.seconds
        var line = "camera: \(frames) frame\(frames == 1 ? "" : "s") in \(String(elapsed, places: 2)) s"
        if frames > 0 && elapsed > 0 {
            line += " (\(String(Double(frames) / elapsed, places: 1)) frames/s, \(String(summary.cpuSeconds * 1000 / Double(frames), places: 2)) ms CPU per frame"
            if s.preview {
                line += ", \(String(summary.sessionThreadCPUSeconds * 1000 / Double(frames), places: 2)) ms of it on the scanning thread"
            }
            line += ")"
        }
        let shown = count + undone
        line += ", \(shown) ISBN\(shown == 1 ? "" : "s") printed"
        if badFrames > 0 { line += ", \(badFrames) unusable frame\(badFrames == 1 ? "" : "s")" }
        if summary.end == .timeout, let timeout = s.timeout { line += "; --timeout of \(String(timeout, places: 2)) s reached" }
        var lines = [line]
        if s.continuous {
            let different = Set(printed.map(\.isbn13)).count
            var books = "camera: \(different) different ISBN\(different == 1 ? "" : "s"), \(duplicates) duplicate\(duplicates == 1 ? "" : "s") (printed again after leaving the view)"
            if undone > 0 { books += ", \(undone) undone" }
            lines.append(books)
        }
        return lines
    }
}
