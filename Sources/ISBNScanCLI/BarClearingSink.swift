// SPDX-License-Identifier: Apache-2.0
/// A sink that takes the progress bar off before each line: standard error, and standard output
/// when it is the terminal the bar is drawn on.
final class BarClearingSink: TextSink {
    private let sink: TextSink
    private let progress: ProgressBar?
    init(_ sink: TextSink, clearing progress: ProgressBar?) {
        self.sink = sink
        self.progress = progress
    }
    func write(_ text: String) {
        progress?.clear()
        sink.write(text)
    }
}
