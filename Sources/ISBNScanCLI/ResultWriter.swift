import ISBN
import Records
import Scanning

/// Writes a scan's results, file by file, through the formatter of the chosen output format
/// (text, JSON Lines, CSV, or the `--unique` aggregator at the end); reports errors, refused
/// codes and empty files on stderr.
final class ResultWriter {
    let settings: ScanCommand.Settings
    /// Prefix text lines with the file name (several files or a folder given).
    let showNames: Bool
    private let out: TextSink
    private let diagnostics: TextSink
    private let text: TextFormatter
    private let csv: CSVFormatter
    private let jsonLines = JSONLinesFormatter()
    /// `--unique`: ISBNs in order of first sight, with their count and first file.
    private var unique = UniqueAggregator()

    init(settings: ScanCommand.Settings, showNames: Bool, out: TextSink, diagnostics: TextSink) {
        self.settings = settings
        self.showNames = showNames
        self.out = out
        self.diagnostics = diagnostics
        self.text = TextFormatter(options: .init(showNames: showNames, all: settings.all, addOns: settings.addOns))
        self.csv = CSVFormatter(options: .init(unique: settings.unique))
    }

    /// The CSV header, when writing CSV.
    func begin() {
        guard settings.format == .csv else { return }
        out.write(csv.header)
    }

    /// One file's result: its records on the output, its diagnostics on stderr.
    func write(_ result: FileScanResult) {
        write(FileRecord(result))
    }

    /// One file's record: on the output, and its diagnostics on stderr.
    func write(_ record: FileRecord) {
        writeDiagnostics(record)
        if settings.unique {
            unique.add(record)
            return
        }
        switch settings.format {
        case .json: out.write(jsonLines.format(record))
        case .csv: out.write(csv.format(record))
        case .text: out.write(text.format(record))
        }
    }

    /// The `--unique` list, if asked for.
    func finish() {
        guard settings.unique else { return }
        for entry in unique.records {
            switch settings.format {
            case .text: out.write(text.format(entry))
            case .json: out.write(jsonLines.format(entry))
            case .csv: out.write(csv.format(entry))
            }
        }
    }

    private func writeDiagnostics(_ record: FileRecord) {
        let path = escaped(record.file, json: false)
        if let error = record.error { diagnostics.write("Error: \(path): \(error)\n") }
        guard !settings.quiet, record.wasRead else { return }
        if !settings.all || settings.format != .text {
            for code in record.rejected {
                diagnostics.write("Warning: \(path): \(code.type) \(code.data) refused, \(code.explanation)\n")
            }
        }
        if record.symbols.isEmpty {
            let place = settings.region.isFull ? "" : " in the region of interest"
            diagnostics.write("Warning: \(path): no barcode found\(place)\n")
        }
    }
}
