// SPDX-License-Identifier: Apache-2.0
import Batch
import Catalog
import Imaging
import Records

/// `scan --db`: which inputs are scanned and which the catalogue answers for (unchanged since
/// they were catalogued, ``Catalog/decision(for:identify:rescan:)``), in input order.
struct ResumePlan {
    /// The inputs to scan, with their identity (`nil`: none, never recorded unless standard
    /// input), the row each replaces, and its place among all inputs.
    private(set) var inputs: [BatchInput] = []
    private(set) var identities: [FileIdentity?] = []
    private(set) var replacing: [Int64?] = []
    private(set) var positions: [Int] = []
    /// The rows of the unchanged inputs, for the counts.
    private(set) var unchanged: [Catalog.StoredFile] = []
    /// With `-o`: the records the catalogue keeps for unchanged inputs, at their place.
    private(set) var fromCatalog: [(position: Int, record: FileRecord)] = []
    /// `<file>: unchanged since …` for the unchanged files named on the command line (a
    /// folder's are counted in the summary line only), so that a run never ends in silence.
    private(set) var unchangedLines: [String] = []

    /// Without a catalogue: every input is scanned, and none is recorded.
    init(scanningAll all: [BatchInput]) { inputs = all }

    /// - Throws: ``CatalogError`` when the catalogue's row or record of an input cannot be read
    ///   (the file damaged, or failing to read): the run stops rather than scan again what it holds.
    init(_ all: [BatchInput], catalog: Catalog, settings: ScanCommand.Settings, recordOptions: RecordOptions) throws(CatalogError) {
        for (position, input) in all.enumerated() {
            let decision = try catalog.decision(for: input.path.bytes, identify: !input.path.isStandardInput && input.error == nil,
                                            rescan: settings.rescan)
            var scan: (identity: FileIdentity?, replacing: Int64?)
            switch decision {
            case .scan(let identity, let row): scan = (identity, row)
            case .unchanged(let stored):
                // -o holds every file's result: the catalogue's for this one; a row without a
                // record this version can read (nil) is scanned again.
                let record = settings.output == nil ? nil
                    : try catalog.fileRecord(of: stored, named: input.path.description, options: recordOptions)
                if settings.output != nil && record == nil {
                    scan = (FileIdentity(path: input.path.bytes), stored.id)
                    break
                }
                // Its results, warnings and errors were printed by the run that scanned it.
                unchanged.append(stored)
                if !input.foundInFolder {
                    unchangedLines.append(ScanCommand.unchangedLine(input.path.description, scannedAt: stored.scannedAt))
                }
                if let record { fromCatalog.append((position, record)) }
                continue
            }
            inputs.append(input)
            identities.append(scan.identity)
            replacing.append(scan.replacing)
            positions.append(position)
        }
    }
}
