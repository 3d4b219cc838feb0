// SPDX-License-Identifier: Apache-2.0
import Imaging

/// The one-line progress display of a batch run on a terminal's stderr:
/// `[#######.......]  120/300 files  45.2 files/s  ETA 0:04  found 110`.
///
/// Redrawn in place with `\r` and erase-line (`ESC [K`); ``clear()`` removes it before
/// another stderr line is written, so warnings never mix with it. Only used when stderr is a
/// terminal and `--quiet` is not given.
final class ProgressBar {
    private let sink: TextSink
    private let total: Int
    private let start: ContinuousClock.Instant
    private var shown = false
    /// Seconds from `start` to the last draw.
    private var lastDraw = -1.0

    init(sink: TextSink, total: Int) {
        self.sink = sink
        self.total = total
        self.start = .now
    }

    /// Redraws with `done` files finished and `found` of them holding an ISBN, at most
    /// ten times a second unless `force`.
    func draw(done: Int, found: Int, force: Bool = false) {
        let elapsed = (ContinuousClock.now - start).seconds
        guard force || elapsed - lastDraw >= 0.1 else { return }
        lastDraw = elapsed
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let width = 24
        let filled = total > 0 ? width * min(done, total) / total : width
        var line = "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
        line += "\(done)/\(total) files  " + formatRate(rate) + " files/s"
        if done > 0, rate > 0, done < total {
            line += "  ETA " + formatDuration(Double(total - done) / rate)
        }
        line += "  found \(found)"
        sink.write(line)
        shown = true
    }

    /// Erases the line if it is shown.
    func clear() {
        guard shown else { return }
        sink.write("\r\u{1B}[K")
        shown = false
    }
}

/// `12.3` for rates: one decimal under 100, none above.
func formatRate(_ rate: Double) -> String {
    String(rate, places: 1, wholeFrom: 100)
}

/// `m:ss` or `h:mm:ss`.
func formatDuration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
    return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
}
