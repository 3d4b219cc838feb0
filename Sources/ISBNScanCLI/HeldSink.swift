// SPDX-License-Identifier: Apache-2.0
/// Text held back until the catalogue batch that records it is committed, so that a run killed
/// (even with SIGKILL) never printed a result the catalogue lost.
final class HeldSink: TextSink {
    private let sink: TextSink
    private var held = ""
    init(_ sink: TextSink) { self.sink = sink }
    func write(_ text: String) { held += text }
    /// The sink's: a reader gone or a full disk stops the run as it does without `--db`.
    var writeFailed: Bool { sink.writeFailed }
    /// Writes out what was held.
    func release() {
        guard !held.isEmpty else { return }
        sink.write(held)
        held = ""
    }
    /// Drops what was held: the results of files that could not be recorded are not printed.
    func discard() { held = "" }
}
