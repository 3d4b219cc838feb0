// SPDX-License-Identifier: Apache-2.0
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

    /// One file's record: on the output, and its diagnostics on stderr. Returns the warnings
    /// written (without `Warning: <file>: `), for the catalogue.
    @discardableResult
    func write(_ record: FileRecord) -> [String] {
        let warnings = writeDiagnostics(record)
        writeResult(record)
        return warnings
    }

    /// One file's record on the output only (a file the catalogue holds: its diagnostics were
    /// shown by the run that scanned it).
    func writeResult(_ record: FileRecord) {
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

    private func writeDiagnostics(_ record: FileRecord) -> [String] {
        let path = escaped(record.file, json: false)
        if let error = record.error { diagnostics.write("Error: \(path): \(error)\n") }
        guard record.wasRead else { return [] }
        // A file read only in part: first, as it qualifies everything else said about the file.
        let partial = record.warning.map { [escaped($0, json: false)] } ?? []
        // A misread of a code accepted at its place is listed (--all, JSON), not warned about.
        let refusals = record.rejected.filter(\.isProblem).map { "\($0.type) \($0.data) refused, \($0.explanation)" }
        // Only a region that looks much like a barcode is named (text can look a little like one).
        let unread = record.candidates.first(where: \.isStrong).map {
            "; something that looks like a barcode (\($0.place)) could not be read: "
                + (isCutByRegion($0, in: record) ? "the region of interest cuts it off; widen --roi, or --roi 0,0,1,1 reads the whole picture"
                   : settings.effort == .fast ? "try --effort normal, or retake it closer and sharper" : "retake it closer and sharper")
        } ?? ""
        let empty = record.symbols.isEmpty
            ? ["no barcode" + (settings.text ? " or printed ISBN" : "") + " found" + (settings.region.isFull ? "" : " in the region of interest") + unread] : []
        if !settings.quiet {
            // With --all as text, refused codes are on stdout already.
            let shown = partial + (!settings.all || settings.format != .text ? refusals : []) + empty
            for warning in shown { diagnostics.write("Warning: \(path): \(warning)\n") }
        }
        return refusals + empty
    }

    /// Whether `candidate` reaches an edge of the region of interest that lies inside the
    /// picture: the region, not the photo, cut the barcode. Candidates are made of whole blocks
    /// of the search (``CandidateMap/block`` pixels from the region's corner), so "reaches" is
    /// "within one block".
    private func isCutByRegion(_ candidate: CandidateRecord, in record: FileRecord) -> Bool {
        guard !settings.region.isFull, let width = record.width, let height = record.height else { return false }
        let rect = settings.region.pixelRect(imageWidth: width, imageHeight: height)
        let xs = candidate.polygon.map(\.x), ys = candidate.polygon.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return false }
        let margin = CandidateMap.block
        return (rect.x > 0 && minX <= rect.x + margin) || (rect.x + rect.width < width && maxX >= rect.x + rect.width - 1 - margin)
            || (rect.y > 0 && minY <= rect.y + margin) || (rect.y + rect.height < height && maxY >= rect.y + rect.height - 1 - margin)
    }

}
