// SPDX-License-Identifier: Apache-2.0
import ISBN
import Records

/// A file's record as rows (schema version 5): the `files` row's own columns, and `symbols`,
/// `file_isbns`, `file_refusals` and `candidates` in order. See ``Schema`` for the tables.
extension Catalog {
    /// The record of the scan `stored` keeps, named `file`, its ISBNs hyphenated with `options`'
    /// range message, as the scan printed it; or `nil` when the row holds no record this version
    /// can read: the file is then to be scanned again. (A JSON line an older version wrote that
    /// could not be read back when it was migrated left a row without identity, which is never
    /// found unchanged: see ``recordsFromJSON(_:)``.)
    ///
    /// A catalogue opened read-only at a version before 5 keeps the record as its JSON line,
    /// which is read here (``Records/FileRecord/init(json:file:options:)``).
    /// - Throws: ``CatalogError`` when the rows cannot be read.
    public func fileRecord(of stored: StoredFile, named file: String,
                           options: RecordOptions = RecordOptions()) throws(CatalogError) -> FileRecord? {
        // One snapshot for the five reads: a writer replacing this scan meanwhile is seen whole or not at all.
        let snapshot = !db.inTransaction
        if snapshot { try statement("BEGIN").run() }
        defer { if snapshot { try? statement("COMMIT").run() } }
        let id: [Statement.Value] = [.int(stored.id)]
        // The version in this snapshot, not the one found at open: a writer may have migrated
        // the file since (the JSON lines then are rows).
        guard try Int(statement("PRAGMA user_version").scalar() ?? 0) >= Schema.recordRows else {
            var line: String?
            try statement("SELECT record FROM files WHERE id = ?").run(id) { line = $0.text(0) }
            return line.flatMap(JSONValue.init(parsing:)).flatMap { FileRecord(json: $0, file: file, options: options) }
        }
        func hyphenated(_ isbn: ISBNRecord) -> ISBNRecord {
            guard let ranges = options.ranges else { return isbn }
            var isbn = isbn
            isbn.hyphenate(with: ranges)
            return isbn
        }
        var symbols: [SymbolRecord] = []
        try statement("""
            SELECT type, data, addon, quality, orientation, polygon, pass, page, verdict, isbn10, isbn_jp_book_code, reason, detail,
                   misread_of, paired_isbn13, jp_book_code, printed_line, qualifier, printed_digits
            FROM symbols WHERE file_id = ? ORDER BY position
            """).run(id) { row in
            let type = row.text(0) ?? "", data = row.text(1) ?? "", addOn = row.text(2), page = row.optionalInt(7).map(Int.init)
            let qualifier = row.text(17)
            var isbn: ISBNRecord?
            if row.text(8) == "accepted" {
                var accepted = ISBNRecord(isbn13: data, isbn10: row.text(9), addOn: addOn)
                accepted.page = page
                accepted.qualifier = qualifier
                accepted.jpBookCode = row.text(10).flatMap(JapaneseBookCode.init(ean:))
                isbn = hyphenated(accepted)
            }
            let refusal = row.text(11).map { RefusalRecord(type: type, data: data, reason: $0, detail: row.text(12) ?? "", misreadOf: row.text(13)) }
            var symbol = SymbolRecord(type: type, data: data, addOn: addOn, quality: Int(row.int(3)),
                                      orientation: row.optionalInt(4).map(Int.init), polygon: row.text(5).flatMap(JSONValue.init(parsing:))?.polygon ?? [],
                                      pass: row.text(6) ?? "", isbn: isbn, refusal: refusal)
            symbol.page = page
            symbol.pairedISBN = row.text(14)
            symbol.jpBookCode = row.text(15).flatMap(JapaneseBookCode.init(ean:))
            symbol.printedLine = row.text(16)
            symbol.qualifier = qualifier
            symbol.printedDigits = row.text(18)
            symbols.append(symbol)
        }
        // The symbols are the record: a row that counts some and has none kept no record.
        guard symbols.count == stored.symbolCount else { return nil }
        var isbns: [ISBNRecord] = []
        try statement("SELECT isbn13, isbn10, addon, page, qualifier, jp_book_code FROM file_isbns WHERE file_id = ? ORDER BY position")
            .run(id) { row in
                var isbn = ISBNRecord(isbn13: row.text(0) ?? "", isbn10: row.text(1), addOn: row.text(2))
                isbn.page = row.optionalInt(3).map(Int.init)
                isbn.qualifier = row.text(4)
                isbn.jpBookCode = row.text(5).flatMap(JapaneseBookCode.init(ean:))
                isbns.append(hyphenated(isbn))
            }
        var rejected: [RefusalRecord] = []
        try statement("SELECT type, data, reason, detail, misread_of FROM file_refusals WHERE file_id = ? ORDER BY position")
            .run(id) { row in
                rejected.append(RefusalRecord(type: row.text(0) ?? "", data: row.text(1) ?? "", reason: row.text(2) ?? "",
                                              detail: row.text(3) ?? "", misreadOf: row.text(4)))
            }
        var candidates: [CandidateRecord] = []
        try statement("SELECT polygon, angle, inverted, strong FROM candidates WHERE file_id = ? ORDER BY position").run(id) { row in
            candidates.append(CandidateRecord(polygon: row.text(0).flatMap(JSONValue.init(parsing:))?.polygon ?? [], angle: Int(row.int(1)), inverted: row.int(2) != 0,
                                              isStrong: row.int(3) != 0))
        }
        var record: FileRecord?
        try statement("SELECT width, height, pages, warning, error FROM files WHERE id = ?").run(id) { row in
            record = FileRecord(file: file, width: row.optionalInt(0).map(Int.init), height: row.optionalInt(1).map(Int.init),
                                symbols: symbols, isbns: isbns, rejected: rejected, error: row.text(4))
            record?.pages = row.optionalInt(2).map(Int.init)
            record?.warning = row.text(3)
            record?.candidates = candidates
        }
        return record
    }

    /// The rows of `record`'s lists for the `files` row `fileID` (whose own columns its writer
    /// sets), each list in order from position 0.
    func insertRecord(_ record: FileRecord, fileID: Int64) throws(CatalogError) {
        let file = Statement.Value.int(fileID)
        let symbol = try statement("""
            INSERT INTO symbols (file_id, position, type, data, addon, quality, orientation, polygon, pass, page, verdict, isbn10,
                                 isbn_jp_book_code, reason, detail, misread_of, paired_isbn13, jp_book_code, printed_line,
                                 qualifier, printed_digits)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, s) in record.symbols.enumerated() {
            try symbol.run([file, .optional(position), .text(s.type), .text(s.data), .optional(s.addOn), .optional(s.quality),
                            .optional(s.orientation), .text(JSONValue(polygon: s.polygon).encoded), .text(s.pass), .optional(s.page),
                            .text(s.verdict), .optional(s.isbn?.isbn10), .optional(s.isbn?.jpBookCode?.code),
                            .optional(s.refusal?.reason), .optional(s.refusal?.detail), .optional(s.refusal?.misreadOf),
                            .optional(s.pairedISBN), .optional(s.jpBookCode?.code), .optional(s.printedLine), .optional(s.qualifier),
                            .optional(s.printedDigits)])
        }
        let isbn = try statement("""
            INSERT INTO file_isbns (file_id, position, isbn13, isbn10, addon, page, qualifier, jp_book_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, i) in record.isbns.enumerated() {
            try isbn.run([file, .optional(position), .text(i.isbn13), .optional(i.isbn10), .optional(i.addOn), .optional(i.page),
                          .optional(i.qualifier), .optional(i.jpBookCode?.code)])
        }
        let refusal = try statement("""
            INSERT INTO file_refusals (file_id, position, type, data, reason, detail, misread_of) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, r) in record.rejected.enumerated() {
            try refusal.run([file, .optional(position), .text(r.type), .text(r.data), .text(r.reason), .text(r.detail),
                             .optional(r.misreadOf)])
        }
        let candidate = try statement("INSERT INTO candidates (file_id, position, polygon, angle, inverted, strong) VALUES (?, ?, ?, ?, ?, ?)")
        for (position, c) in record.candidates.enumerated() {
            try candidate.run([file, .optional(position), .text(JSONValue(polygon: c.polygon).encoded), .optional(c.angle),
                               .bool(c.inverted), .bool(c.isStrong)])
        }
    }

    /// Removes what the scan of the `files` row `fileID` recorded: its record's rows, its
    /// sightings and its refusals.
    func deleteScan(of fileID: Int64) throws(CatalogError) {
        for table in ["sightings", "refusals"] + Schema.recordTables {
            try statement("DELETE FROM \(table) WHERE file_id = ?").run([.int(fileID)])
        }
    }

    /// Migration 5's part that SQL cannot do: the record columns added to `files` (those
    /// missing), then each row's JSON line (`files.record`) read once into its record's rows, and
    /// the table rebuilt without that column. A catalogue whose version was set back by hand has
    /// no `record` any more: nothing is converted again.
    ///
    /// Rebuilt, not `ALTER TABLE DROP COLUMN`: the rows are written afresh into full pages and
    /// the old table's pages are freed for the catalogue to reuse. Neither shrinks the file;
    /// only VACUUM does. Foreign keys are off (see ``Catalog``'s initializer), so dropping the
    /// old table deletes nothing that refers to it, and the rows keep their `id`s; what refers
    /// to the rebuilt table is checked afterwards (`PRAGMA foreign_key_check`).
    /// - Throws: ``CatalogError/constraint`` when a row refers to no `files` row (or any other
    ///   parent); the migration is then rolled back.
    func moveRecordsOutOfJSON() throws(CatalogError) {
        var columns = Set<String>()
        try Statement(db, "SELECT name FROM pragma_table_info('files')").run { columns.insert($0.text(0) ?? "") }
        for column in Schema.recordColumns where !columns.contains(String(column.prefix { $0 != " " })) {
            try db.execute("ALTER TABLE files ADD COLUMN \(column)")
        }
        guard columns.contains("record") else { return }
        // NULL: a catalogue of version 6 or later set back by hand (see trapOlderWriters()).
        try recordsFromJSON("SELECT id, record, id FROM files WHERE id > ? AND record IS NOT NULL ORDER BY id LIMIT 256")
        guard try Statement(db, "PRAGMA foreign_keys").scalar() == 0 else {
            throw CatalogError(code: CatalogError.misuse, message: "foreign keys are on: rebuilding files would delete its sightings",
                               sql: Schema.filesWithoutRecord, path: path, sqliteMessage: false)
        }
        try db.execute(Schema.filesWithoutRecord)
        // With foreign keys off nothing stops a row referring to no file: the migration must not
        // write a catalogue whose next delete or insert fails on one.
        var dangling: [String: Int] = [:]
        try Statement(db, "PRAGMA foreign_key_check").run { row in dangling["\(row.text(0) ?? "") → \(row.text(2) ?? "")", default: 0] += 1 }
        if !dangling.isEmpty {
            let rows = dangling.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ")
            throw CatalogError(code: CatalogError.constraint,
                               message: "rows refer to rows that do not exist (\(rows)); not upgraded, left as it was",
                               sql: "PRAGMA foreign_key_check", path: path, sqliteMessage: false)
        }
    }

    /// Migration 6: `files.record` added back (when missing), NULL, with the triggers that
    /// refuse a row setting it (``Schema/olderWriterTriggers``): an isbnscan of a version
    /// before 5 that opened the catalogue before it was migrated, and waited for the migration's
    /// lock, then fails with a sentence saying what happened instead of "table files has no
    /// column named record". One that opens it afterwards refuses it by its version already.
    func trapOlderWriters() throws(CatalogError) {
        try addColumn("record TEXT", to: "files")
        try db.execute(Schema.olderWriterTriggers)
    }

    /// `ALTER TABLE table ADD COLUMN column` (`name TYPE`), unless `table` has it already (a
    /// catalogue whose version was set back by hand).
    func addColumn(_ column: String, to table: String) throws(CatalogError) {
        var columns = Set<String>()
        try Statement(db, "SELECT name FROM pragma_table_info(?)").run([.text(table)]) { columns.insert($0.text(0) ?? "") }
        guard !columns.contains(String(column.prefix { $0 != " " })) else { return }
        try db.execute("ALTER TABLE \(table) ADD COLUMN \(column)")
    }

    /// Writes the record of each JSON line `select` returns into its file's row and rows:
    /// `select` gives the `files` row (`main.files.id`), the line, and a key to page on (the
    /// first parameter: rows after it), in pages so that a large catalogue is not held in memory.
    /// A line this version cannot read gets no rows, and its row loses `mtime_ns` and
    /// `content_hash`: a row without its record must never stand for the file as unchanged (a
    /// record rebuilt from its counts alone would be made up), so the next scan reads the file.
    func recordsFromJSON(_ select: String) throws(CatalogError) {
        var after = Int64.min
        while true {
            var page: [(fileID: Int64, line: String)] = []
            try statement(select).run([.int(after)]) { row in
                page.append((row.int(0), row.text(1) ?? ""))
                after = row.int(2)
            }
            guard !page.isEmpty else { return }
            for (fileID, line) in page {
                guard let record = JSONValue(parsing: line).flatMap({ FileRecord(json: $0, file: "") }) else {
                    try statement("UPDATE main.files SET mtime_ns = NULL, content_hash = NULL WHERE id = ?").run([.int(fileID)])
                    continue
                }
                try statement("UPDATE main.files SET width = ?, height = ?, pages = ?, warning = ? WHERE id = ?")
                    .run([.optional(record.width), .optional(record.height), .optional(record.pages), .optional(record.warning),
                          .int(fileID)])
                try insertRecord(record, fileID: fileID)
            }
        }
    }
}
