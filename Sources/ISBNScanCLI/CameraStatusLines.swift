// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import LiveScan

/// What `camera` says on stderr besides its results: `camera: …` status lines and `Warning:`
/// lines (none of either with `-q`), and, when stderr is a terminal, a frames-per-second line
/// rewritten in place, which any other line (or a result on stdout) first ends or clears.
struct CameraStatusLines {
    let stderr: TextSink
    let quiet: Bool
    /// stderr is a terminal: show the live frames-per-second line.
    let live: Bool
    /// The live line is on screen, unfinished.
    private(set) var shown = false
    private var lastTime = 0.0, framesAtLast = 0

    init(stderr: TextSink, quiet: Bool) {
        self.stderr = stderr
        self.quiet = quiet
        self.live = !quiet && isatty(2) == 1 && (stderr as? FileDescriptorSink)?.fd == 2
    }

    /// `camera: <line>`.
    mutating func status(_ line: String) {
        if !quiet { endLine(); stderr.write("camera: \(line)\n") }
    }

    /// `Warning: <line>` (also with `-q`: the caller decides).
    mutating func warn(_ line: String) {
        endLine()
        stderr.write("Warning: \(line)\n")
    }

    /// `Error: <line>`.
    mutating func error(_ line: String) {
        endLine()
        stderr.write("Error: \(line)\n")
    }

    /// The live line, at most once a second: `camera: <rate> frames/s, <count> ISBNs`.
    mutating func frame(_ info: LiveScanEvent.FrameInfo, isbns count: Int) {
        guard live, info.time - lastTime >= 1 else { return }
        let rate = Double(info.number - framesAtLast) / (info.time - lastTime)
        stderr.write("\r\u{1B}[Kcamera: \(String(rate, places: 1)) frames/s, \(count) ISBN\(count == 1 ? "" : "s")")
        shown = true
        lastTime = info.time
        framesAtLast = info.number
    }

    /// Clears the live line (before a result goes to stdout on the same terminal); it comes back
    /// at the next second.
    mutating func clear() {
        if shown { stderr.write("\r\u{1B}[K") }
    }

    /// Ends the live line, so that what follows starts a line of its own.
    mutating func endLine() {
        if shown { stderr.write("\n"); shown = false }
    }
}
