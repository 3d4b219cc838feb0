// SPDX-License-Identifier: Apache-2.0
import Catalog
import Records

/// `camera --db`: the ISBNs a session prints, recorded before they are printed, and taken out
/// again by undo; after the first error nothing more is recorded (the session stops).
final class CameraCatalogue {
    /// The catalogue, `nil` after an error.
    private(set) var catalog: Catalog?
    /// A confirmed ISBN could not be recorded.
    private(set) var failed = false
    let device: String

    init(_ catalog: Catalog, device: String) {
        self.catalog = catalog
        self.device = device
    }

    /// Records `event` at `time` (committed when this returns) and returns a line for each of
    /// its ISBNs the catalogue held already: `<isbn13>: already scanned <day> from <file or device>`.
    /// - Throws: ``CatalogError``; the catalogue is then given up (``failed``).
    func record(_ event: FrameEventRecord, at time: String) throws(CatalogError) -> [String] {
        guard let catalog else { return [] }
        do {
            var already: [String] = []
            for isbn in event.isbns {
                guard let seen = try catalog.firstSighting(of: isbn.isbn13) else { continue }
                // A camera by its node, as everywhere else (/dev/video0); a file by its name.
                let source = seen.source.hasPrefix("/dev/") ? seen.source
                    : seen.source.split(separator: "/").last.map(String.init) ?? seen.source
                already.append("\(isbn.isbn13): already scanned \(seen.seenAt.prefix(10)) from \(escaped(source, json: false))")
            }
            try catalog.record(event, at: time)
            return already
        } catch {
            self.catalog = nil
            failed = true
            throw error
        }
    }

    /// Removes the sighting `printed` recorded (only that one); whether there was one.
    func remove(_ printed: CameraTally.Printed) throws(CatalogError) -> Bool {
        guard printed.recorded, let catalog else { return false }
        return try catalog.removeSighting(isbn13: printed.isbn13, device: device, frame: printed.frame, at: printed.time) > 0
    }

    /// Forgets the catalogue (a new one this run never used is removed by the caller).
    func close() { catalog = nil }
}
