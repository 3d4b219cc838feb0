// SPDX-License-Identifier: Apache-2.0
import Catalog

/// Where a scan writes: its results (the `-o` file, which appears whole or not at all, or
/// stdout) and the writer's diagnostics; with `--db`, both are held until the catalogue batch
/// that records them is committed, by the recorder this opens.
struct ScanSinks {
    /// `-o`: the file, renamed into place by ``commit(_:)``.
    let file: AtomicFileSink?
    /// stderr, the progress bar taken off first; never held.
    let diagnostics: TextSink
    /// Where results go.
    private(set) var results: TextSink
    /// Where the writer's errors and warnings about files go.
    private(set) var writerDiagnostics: TextSink
    /// `--db`: records the files scanned and releases the held output of each batch.
    private(set) var recorder: CatalogRecorder?

    /// Opens the `-o` file of `settings`, if any; `nil` after writing on `diagnostics` why it
    /// cannot be opened.
    init?(_ settings: ScanCommand.Settings, stdout: TextSink, progress: ProgressBar?, diagnostics: TextSink) {
        do {
            file = try settings.output.map { (path) throws(OutputError) in try AtomicFileSink(path: path) }
        } catch {
            diagnostics.write("Error: \(error)\n")
            return nil
        }
        self.diagnostics = diagnostics
        // Results on the terminal the bar is drawn on (stdout and stderr both a terminal) take
        // the bar off first, as diagnostics do, so that no result is written after the bar's text.
        results = file ?? (progress != nil && ISBNScanCommand.isTerminal(stdout)
            ? BarClearingSink(stdout, clearing: progress) : stdout)
        writerDiagnostics = diagnostics
    }

    /// `--db`: opens the catalogue at `path` and holds the results and the writer's diagnostics
    /// for its commits. `nil` after writing why it cannot be opened (the `-o` file is then
    /// discarded).
    mutating func openCatalogue(_ path: String) -> Catalog? {
        let catalog: Catalog
        do {
            catalog = try Catalog(path: path, access: .write) { diagnostics.write("Note: \($0)\n") }
        } catch {
            file?.discard()
            diagnostics.write("Error: \(error)\n")
            return nil
        }
        let heldResults = HeldSink(results), heldDiagnostics = HeldSink(writerDiagnostics)
        results = heldResults
        writerDiagnostics = heldDiagnostics
        recorder = CatalogRecorder(catalog: catalog, held: [heldResults, heldDiagnostics], diagnostics: diagnostics)
        return catalog
    }

    /// Renames the `-o` file into place: `status`, or ``ExitStatus/outputError`` after writing
    /// why it could not be.
    func commit(_ status: ExitStatus) -> ExitStatus {
        do {
            try file?.commit()
        } catch {
            diagnostics.write("Error: \(error)\n")
            return .outputError
        }
        return status
    }
}
