/// Standard error with the progress bar taken off before each line.
final class DiagnosticSink: TextSink {
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
