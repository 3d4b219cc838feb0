/// The catalogue's schema: one migration per version, applied in order; `PRAGMA user_version`
/// holds the version reached (0 for a new file). README ("The catalogue") documents the tables.
enum Schema {
    /// Version n is reached by running `migrations[n - 1]`.
    static let migrations: [String] = [
        // 1: files scanned and ISBN sightings.
        """
        CREATE TABLE files (
            id INTEGER PRIMARY KEY,
            path BLOB NOT NULL UNIQUE,
            name TEXT NOT NULL,
            size INTEGER,
            mtime_ns INTEGER,
            status TEXT NOT NULL CHECK (status IN ('isbn', 'refused', 'no-barcode', 'error')),
            isbn_count INTEGER NOT NULL,
            refused_count INTEGER NOT NULL,
            symbol_count INTEGER NOT NULL,
            error TEXT,
            warnings TEXT,
            record TEXT NOT NULL,
            scanned_at TEXT NOT NULL
        );
        CREATE TABLE sightings (
            id INTEGER PRIMARY KEY,
            isbn13 TEXT NOT NULL,
            isbn10 TEXT,
            addon TEXT,
            file_id INTEGER REFERENCES files(id) ON DELETE CASCADE,
            device TEXT,
            frame INTEGER,
            source TEXT NOT NULL,
            polygon TEXT NOT NULL,
            seen_at TEXT NOT NULL
        );
        CREATE INDEX sightings_by_isbn ON sightings(isbn13);
        CREATE INDEX sightings_by_file ON sightings(file_id);
        CREATE UNIQUE INDEX sightings_once ON sightings(isbn13, source, seen_at, IFNULL(frame, -1));
        """,
        // 2: refused codes, so `catalog stats` can count them by reason.
        """
        CREATE TABLE refusals (
            id INTEGER PRIMARY KEY,
            file_id INTEGER REFERENCES files(id) ON DELETE CASCADE,
            device TEXT,
            frame INTEGER,
            source TEXT NOT NULL,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            reason TEXT NOT NULL,
            detail TEXT NOT NULL,
            seen_at TEXT NOT NULL
        );
        CREATE INDEX refusals_by_file ON refusals(file_id);
        CREATE UNIQUE INDEX refusals_once ON refusals(data, source, seen_at, IFNULL(frame, -1));
        """,
    ]

    /// The version a catalogue has after ``migrations``.
    static var version: Int { migrations.count }
}
