// SPDX-License-Identifier: Apache-2.0
import Catalog
import ISBN
import Lookup
import Records

/// `isbnscan catalog lookup --db FILE`: the books of the catalogue without an answer in its
/// lookup cache (every book with `--refresh`) looked up, each answer stored as it comes.
///
/// The ISBNs are queued as pending first (one transaction), so a run that is interrupted,
/// killed or cut off from the network leaves them to the next one; a failed lookup never
/// replaces an answer the cache holds.
enum CatalogLookup {
    /// Looks up `catalog`'s books. `db` is the catalogue's name as given, for the messages.
    static func run(_ catalog: Catalog, db: String, options: LookupOptions, refresh: Bool, json: Bool,
                    stdout: TextSink, stderr: TextSink) throws(CatalogError) -> ExitStatus {
        let isbns = try catalog.isbnsToLookUp(refresh: refresh)
        guard !isbns.isEmpty else {
            let books = try catalog.books().count
            if books == 0 {
                stderr.write("catalog lookup: \(escaped(db, json: false)) holds no book\n")
                return .nothingFound
            }
            stderr.write("catalog lookup: nothing to look up: every book (\(books)) has its answer in the catalogue "
                         + "(--refresh looks them up again)\n")
            return .found
        }
        try catalog.queueLookups(isbns)
        let lookup: BookLookup
        do { lookup = try BookLookup(options: options, version: ISBNScanCommand.version) } catch {
            stderr.write("Error: \(error.message)\n")
            return .inputError
        }
        StopSignal.install()
        var tally = LookupTally()
        let formatter = JSONLinesFormatter()
        // A batch of Open Library's size at a time: each batch's answers are stored before the
        // next is asked, so that an interruption loses at most one batch's requests.
        let batch = Provider.openLibrary.batchSize
        var start = 0
        while start < isbns.count && StopSignal.received == nil && !stdout.writeFailed {
            let chunk = isbns[start..<min(start + batch, isbns.count)].compactMap { ISBN.judge(ean: $0, accepting: .with979).isbn }
            start += batch
            var records: [LookupRecord] = []
            lookup.lookUp(chunk) { records.append($0) }
            try catalog.store(records)
            for record in records {
                for line in tally.add(record) { stderr.write(line + "\n") }
                // A book no provider could answer has no answer to print: it stays pending, its
                // cause said once on stderr and its count in the last line, as scan --lookup does,
                // not a line per book for one provider that is down.
                if case .failed = record.outcome { continue }
                stdout.write(json ? formatter.format(record) : record.text + "\n")
            }
        }
        let pending = try catalog.pendingLookups().count
        var line = "catalog lookup: " + tally.summary
        if pending > 0 {
            line += "; \(pending) pending in \(escaped(db, json: false)) (no provider could answer: "
                + "'isbnscan catalog lookup --db \(escaped(db, json: false))' again goes on with them)"
        }
        stderr.write(line + "\n")
        if let signal = StopSignal.received {
            stderr.write("catalog lookup: interrupted by \(signalName(signal))\n")
            return .interrupted
        }
        if stdout.writeFailed { return .outputError }
        if tally.failed > 0 { return .inputError }
        return tally.unknown > 0 ? .nothingFound : .found
    }
}
