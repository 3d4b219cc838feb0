// SPDX-License-Identifier: Apache-2.0
import Batch
import Catalog
import Records

/// What `isbnscan scan` makes of each file's outcome, in input order: its record written,
/// counted and queued for the catalogue; the results the catalogue holds for unchanged files
/// written at their place (`-o`); the books looked up (`--lookup`) and their answers printed.
///
/// The counts are ``Tally``'s, the output ``ResultWriter``'s, the catalogue
/// ``CatalogRecorder``'s, the lookups ``BackgroundLookup``'s.
final class ScanDelivery {
    let settings: ScanCommand.Settings
    /// Which inputs are scanned, and what the catalogue answers for the others.
    private let plan: ResumePlan
    private let recordOptions: RecordOptions
    private let results: TextSink
    let writer: ResultWriter
    let recorder: CatalogRecorder?
    /// `--lookup`: books looked up on their own thread once recorded (with `--db`) or printed.
    let lookup: BackgroundLookup?
    private let progress: ProgressBar?
    private(set) var tally = Tally()
    /// The next of the plan's results from the catalogue to write.
    private var nextFromCatalog = 0

    /// Counts the files the catalogue answers for, writes the CSV header and starts the lookups.
    init(settings: ScanCommand.Settings, plan: ResumePlan, sinks: ScanSinks, recordOptions: RecordOptions,
         showNames: Bool, progress: ProgressBar?) {
        self.settings = settings
        self.plan = plan
        self.recordOptions = recordOptions
        self.results = sinks.results
        self.recorder = sinks.recorder
        self.progress = progress
        for stored in plan.unchanged { tally.add(stored, all: settings.all) }
        writer = ResultWriter(settings: settings, showNames: showNames, out: sinks.results, diagnostics: sinks.writerDiagnostics)
        writer.begin()
        lookup = settings.lookup.flatMap { BackgroundLookup(options: $0, catalogPath: settings.db) }
        if settings.lookup != nil && lookup == nil {
            sinks.diagnostics.write("Warning: --lookup: no thread could be started; no book is looked up\n")
        }
        if let lookup { recorder?.committed = { lookup.submit($0) } }
        recorder?.commit()
    }

    /// A failed write (closed pipe, full disk) stops the run: nothing more can be delivered;
    /// so does a result that cannot be recorded, and a signal.
    var mustStop: Bool { StopSignal.received != nil || results.writeFailed || recorder?.failed == true }

    /// The status the files lead to (``Tally/exitStatus``), or 1 when a result could not be recorded.
    var status: ExitStatus { recorder?.failed == true ? .inputError : tally.exitStatus }

    /// Scans the plan's inputs with `batch` and delivers each outcome; stops `batch` once
    /// ``mustStop``.
    func deliver(from batch: BatchScanner) {
        batch.run(plan.inputs, idle: {
            if let lookup { printLookups(lookup.drain()) }
            recorder?.tick()
            if mustStop { batch.stop() }
            progress?.draw(done: tally.files, found: tally.withISBN)
        }, deliver: { index, outcome in
            deliver(outcome, of: index)
            if mustStop { batch.stop() }
            progress?.draw(done: tally.files, found: tally.withISBN)
        })
    }

    /// After the last file: the catalogue's results that follow it (unless the run stops),
    /// the `--unique` list, and the last commit.
    func finish() {
        if !mustStop { writeFromCatalog(before: Int.max) }
        writer.finish()
        // After the --unique list, which is held like every result until the last commit.
        recorder?.commit()
    }

    /// Waits for the books not answered yet, unless the run stops: then they are left (with
    /// `--db`, pending).
    func awaitLookups() {
        if let lookup, !mustStop {
            _ = lookup.finish(shouldStop: { StopSignal.received != nil || results.writeFailed }, each: { printLookups($0) })
        }
    }

    /// Input `index`'s outcome: written, counted, looked up and recorded, after the catalogue's
    /// results for the unchanged files before it.
    private func deliver(_ outcome: BatchOutcome, of index: Int) {
        if !plan.positions.isEmpty { writeFromCatalog(before: plan.positions[index]) }
        switch outcome {
        case .skipped: tally.skipped += 1
        case .scanned(let result):
            let record = FileRecord(result, options: recordOptions)
            tally.add(record, all: settings.all)
            let warnings = writer.write(record)
            if recorder == nil, let lookup {
                lookup.submit(record.isbns.map(\.isbn13))
                printLookups(lookup.drain())
            }
            // A path that names no file is reported, not recorded.
            let path = plan.inputs[index].path
            if let recorder, plan.identities[index] != nil || path.isStandardInput {
                recorder.record(Catalog.FileEntry(record: record, identity: plan.identities[index], path: path.bytes,
                                                   replacing: plan.replacing[index], warnings: warnings))
            }
        }
    }

    /// Results the catalogue holds, written where they stand among the files scanned.
    private func writeFromCatalog(before position: Int) {
        while nextFromCatalog < plan.fromCatalog.count && plan.fromCatalog[nextFromCatalog].position < position {
            writer.writeResult(plan.fromCatalog[nextFromCatalog].record)
            nextFromCatalog += 1
        }
    }

    /// The books' answers on stdout, without `--db` (with it they are in the catalogue).
    private func printLookups(_ answers: [BackgroundLookup.Answer]) {
        guard settings.db == nil else { return }
        for answer in answers where !answer.cached {
            if let line = BackgroundLookup.line(answer.record, json: settings.format == .json) { results.write(line) }
        }
    }
}
