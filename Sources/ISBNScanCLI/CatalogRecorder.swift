// SPDX-License-Identifier: Apache-2.0
import Catalog
import Imaging
import Records

/// `scan --db`: records the files' results in the catalogue, in batches of at most
/// ``batchSize`` files or ``batchSeconds`` seconds, and releases the held output of a batch
/// only after its commit.
///
/// A batch is kept in memory while files are scanned and written in one short transaction,
/// so that other writers of the catalogue wait for milliseconds, not for a scan. When a batch
/// cannot be recorded (the lock not released within the catalogue's lock timeout, a full
/// disk), its held output is dropped, not printed, and ``failed`` tells the scan to stop.
final class CatalogRecorder {
    /// Files per transaction.
    static let batchSize = 32
    /// Longest time a result waits for its commit, in seconds.
    static let batchSeconds = 0.25

    let catalog: Catalog
    let held: [HeldSink]
    private let diagnostics: TextSink
    private var pending: [Catalog.FileEntry] = []
    private var batchStart = ContinuousClock.now
    /// Set by the first catalogue error: nothing more is recorded or printed.
    private(set) var failed = false
    /// Files whose results were committed to the catalogue.
    private(set) var recordedFiles = 0
    /// Files scanned whose results a failed commit left out (or given after it).
    private(set) var unrecordedFiles = 0
    /// Called after each commit with the ISBNs it recorded (`scan --lookup` looks them up then).
    var committed: ([String]) -> Void = { _ in }

    init(catalog: Catalog, held: [HeldSink], diagnostics: TextSink) {
        self.catalog = catalog
        self.held = held
        self.diagnostics = diagnostics
    }

    /// Queues one file's scan for the next commit.
    func record(_ entry: Catalog.FileEntry) {
        guard !failed else { unrecordedFiles += 1; return }
        if pending.isEmpty { batchStart = .now }
        pending.append(entry)
        if pending.count >= Self.batchSize { commit() }
    }

    /// Commits when the open batch is older than ``batchSeconds`` (called between files).
    func tick() {
        if !pending.isEmpty && (ContinuousClock.now - batchStart).seconds >= Self.batchSeconds { commit() }
    }

    /// Records the queued files in one transaction and releases their output.
    func commit() {
        guard !failed else { return }
        if !pending.isEmpty {
            do { try catalog.record(pending) } catch {
                fail(error)
                return
            }
        }
        let isbns = pending.flatMap { $0.record.isbns.map(\.isbn13) }
        recordedFiles += pending.count
        pending = []
        for sink in held { sink.release() }
        if !isbns.isEmpty { committed(isbns) }
    }

    private func fail(_ error: CatalogError) {
        failed = true
        for sink in held { sink.discard() }
        let files = pending.count == 1 ? "1 file" : "\(pending.count) files"
        unrecordedFiles += pending.count
        diagnostics.write("Error: \(error); stopping: the results of \(files) not recorded are not printed either\n")
        pending = []
    }
}
