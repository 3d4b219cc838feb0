/// The catalogue's schema: one migration per version, applied in order; `PRAGMA user_version`
/// holds the version reached (0 for a new file). Documentation/catalog.md documents the tables.
///
/// Tables (version 4):
/// - `files`: one row per file, keyed by `path`. `path` is the canonical absolute path
///   (realpath(3)) as bytes; `device`, `inode`, `size`, `mtime_ns` (stat(2)) and
///   `content_hash` (``FileIdentity/contentHash``) tell whether the row still describes the
///   file there: only when all five match, and `status` is not `error`, is the file taken as
///   unchanged. Rows written before version 3 have `device` NULL and the path as it was typed
///   (maybe relative); the first run that meets the same file under that spelling or its
///   canonical path takes the row over (re-keys and rescans it), so no file is counted twice.
///   `status` `error` is a file that could not be read: kept to be counted and shown, and
///   scanned again on the next run. Paths that name no file are never recorded.
/// - `sightings`: one row per ISBN accepted in one file's scan (`file_id`) or confirmed by a
///   camera frame (`device`, `frame`); a file's sightings are replaced when it is scanned again.
/// - `refusals`: codes refused, like sightings.
/// - `lookups` (version 4): what the book lookup found per ISBN: `found` 1 with the fields
///   (``Records/BookMetadata``'s, `authors` and `subjects` as JSON arrays of strings) and the
///   `provider` that knew the book, or `found` 0 with the providers asked (comma-separated),
///   none of which knew it; `fetched_at`; `response_id` → `lookup_responses`, the provider's
///   whole answer (`body`, bytes as received; Open Library's answer for a batch is kept once
///   for its ISBNs), to be parsed again by a later version.
/// - `pending_lookups` (version 4): ISBNs queued for a lookup that has not answered yet (not
///   asked yet, or every provider failed: `attempts`, `tried_at`, `error`); a row goes when
///   its answer is stored in `lookups`. A failed lookup never touches `lookups`.
///
/// A migration runs inside the one `BEGIN IMMEDIATE` transaction that also reads
/// `user_version`, so writers starting together on a new file create the tables once.
/// Tables added on top (book metadata) come as new migrations at the end of ``migrations``.
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
        // 3: what identifies a file besides its (now canonical) path.
        """
        ALTER TABLE files ADD COLUMN device INTEGER;
        ALTER TABLE files ADD COLUMN inode INTEGER;
        ALTER TABLE files ADD COLUMN content_hash INTEGER;
        CREATE INDEX files_by_inode ON files(device, inode);
        """,
        // 4: the book lookup's cache and the lookups still to do. IF NOT EXISTS: a catalogue whose
        // version was set back by hand (or a half-copied file) gets the tables once.
        """
        CREATE TABLE IF NOT EXISTS lookup_responses (
            id INTEGER PRIMARY KEY,
            provider TEXT NOT NULL,
            body BLOB NOT NULL,
            fetched_at TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS lookups (
            isbn13 TEXT PRIMARY KEY,
            found INTEGER NOT NULL CHECK (found IN (0, 1)),
            provider TEXT NOT NULL,
            fetched_at TEXT NOT NULL,
            title TEXT,
            title_reading TEXT,
            subtitle TEXT,
            authors TEXT,
            by_statement TEXT,
            publisher TEXT,
            published TEXT,
            year INTEGER,
            pages INTEGER,
            language TEXT,
            subjects TEXT,
            cover TEXT,
            url TEXT,
            response_id INTEGER REFERENCES lookup_responses(id) ON DELETE SET NULL
        );
        CREATE TABLE IF NOT EXISTS pending_lookups (
            isbn13 TEXT PRIMARY KEY,
            queued_at TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            tried_at TEXT,
            error TEXT
        );
        """,
    ]

    /// The version a catalogue has after ``migrations``.
    static var version: Int { migrations.count }
}
