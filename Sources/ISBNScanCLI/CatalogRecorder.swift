#if canImport(Glibc)
import Glibc
#endif
import Catalog
import Imaging
import Records

/// `scan --db`: records each file's result in the catalogue, in batches of at most
/// ``batchSize`` files or ``batchSeconds`` seconds, and releases the held output of a batch
/// only after its commit.
final class CatalogRecorder {
    /// Files per transaction.
    static let batchSize = 32
    /// Longest time a result waits for its commit, in seconds.
    static let batchSeconds = 0.25

    let catalog: Catalog
    let held: [HeldSink]
    private let diagnostics: TextSink
    private var pending = 0
    private var batchStart = ContinuousClock.now
    /// The first catalogue error; recording stops after it (the scan goes on).
    private(set) var failed = false

    init(catalog: Catalog, held: [HeldSink], diagnostics: TextSink) {
        self.catalog = catalog
        self.held = held
        self.diagnostics = diagnostics
    }

    /// Records one file (its path bytes and stat(2) size and modification time).
    func record(_ record: FileRecord, path: [UInt8], stat: FileStat?, warnings: [String]) {
        guard !failed else { release(); return }
        do {
            if !catalog.inBatch {
                try catalog.begin()
                batchStart = .now
            }
            try catalog.record(record, path: path, size: stat?.size, modificationNanoseconds: stat?.modificationNanoseconds,
                               warnings: warnings)
            pending += 1
        } catch {
            fail(error)
            return
        }
        if pending >= Self.batchSize { commit() }
    }

    /// Commits when the open batch is older than ``batchSeconds`` (called between files).
    func tick() {
        if pending > 0 && (ContinuousClock.now - batchStart).seconds >= Self.batchSeconds { commit() }
    }

    /// Commits the open batch and releases its output.
    func commit() {
        if !failed && catalog.inBatch {
            do { try catalog.commit() } catch { fail(error); return }
        }
        pending = 0
        release()
    }

    private func release() { for sink in held { sink.release() } }

    private func fail(_ error: CatalogError) {
        failed = true
        release()
        diagnostics.write("Error: \(error)\n")
    }
}
