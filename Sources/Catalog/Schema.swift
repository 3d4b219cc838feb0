// SPDX-License-Identifier: Apache-2.0
/// The catalogue's schema: one migration per version, applied in order; `PRAGMA user_version`
/// holds the version reached (0 for a new file). Documentation/catalog.md documents the tables.
///
/// Tables (version 6):
/// - `files`: one row per file, keyed by `path`. `path` is the canonical absolute path
///   (realpath(3)) as bytes; `device`, `inode`, `size`, `mtime_ns` (stat(2)) and
///   `content_hash` (``FileIdentity/contentHash``) tell whether the row still describes the
///   file there: only when all five match, and `status` is not `error`, is the file taken as
///   unchanged. Rows written before version 3 have `device` NULL and the path as it was typed
///   (maybe relative); the first run that meets the same file under that spelling or its
///   canonical path takes the row over (re-keys and rescans it), so no file is counted twice.
///   `status` `error` is a file that could not be read: kept to be counted and shown, and
///   scanned again on the next run. Paths that name no file are never recorded.
///   With the four tables below, the row is the file's last scan as ``Records/FileRecord``
///   holds it (version 5): `name` (its `file`), `width`, `height`, `pages`, `warning` (the
///   record's: a file read only in part) and `error`; `warnings` are the `Warning:` texts the
///   scan printed.
/// - `symbols` (version 5): the record's symbols, `position` from 0 in reading order; an
///   accepted one's ISBN is its `data`, `addon`, `page` and `qualifier`, with `isbn10` and the
///   Japanese book code paired with it (`isbn_jp_book_code`); a refused one has `reason`,
///   `detail` and `misread_of`; a Japanese book code (`jp_book_code`, its 13 digits) read beside
///   its ISBN has verdict `jp-book-code` and that ISBN (`paired_isbn13`).
/// - `file_isbns`, `file_refusals`, `candidates` (version 5): the record's `isbns`, `rejected`
///   and `candidates` lists, each in order (`position`). Hyphenation, groups, add-on prices and
///   what a Japanese book code's digits mean are worked out from the digits when read, so they
///   are not stored. These rows are what the scan reported, replayed for unchanged files
///   (`scan -o`); `sightings` and `refusals` are what the catalogue counts, lists and forgets
///   (`catalog remove`), so a book removed there stays in the record of the scan that read it.
/// - `files.record` (version 6; before version 5 the file's JSON line): always NULL. It is
///   there so that an older isbnscan, which sets it, is refused by a trigger with a sentence
///   (``olderWriterMessage``) when it writes a catalogue migrated while it ran.
/// - `sightings`: one row per ISBN accepted in one file's scan (`file_id`) or confirmed by a
///   camera frame (`device`, `frame`); a file's sightings are replaced when it is scanned again.
///   `addon` and (version 6) `jp_book_code`, the 13 digits of a Japanese book's second row,
///   are what was read beside the ISBN there.
/// - `refusals`: codes refused, like sightings (misreads of an accepted code are not refusals
///   to count: they are in `file_refusals` only).
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
/// `user_version`, so writers starting together on a new file create the tables once, and a
/// migration that fails (or a process killed during it) leaves the file as it was.
/// Tables added on top come as new migrations at the end of ``migrations``.
enum Schema {
    /// One step of the schema: SQL, then what SQL alone cannot do, in the same transaction.
    struct Migration: Sendable {
        let sql: String
        /// Run after `sql` (converting rows); `nil` for most.
        var then: (@Sendable (Catalog) throws(CatalogError) -> Void)? = nil
    }

    /// Version n is reached by running `migrations[n - 1]`.
    static let migrations: [Migration] = [
        // 1: files scanned and ISBN sightings.
        Migration(sql: """
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
        """),
        // 2: refused codes, so `catalog stats` can count them by reason.
        Migration(sql: """
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
        """),
        // 3: what identifies a file besides its (now canonical) path.
        Migration(sql: """
        ALTER TABLE files ADD COLUMN device INTEGER;
        ALTER TABLE files ADD COLUMN inode INTEGER;
        ALTER TABLE files ADD COLUMN content_hash INTEGER;
        CREATE INDEX files_by_inode ON files(device, inode);
        """),
        // 4: the book lookup's cache and the lookups still to do. IF NOT EXISTS: a catalogue whose
        // version was set back by hand (or a half-copied file) gets the tables once.
        Migration(sql: """
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
        """),
        // 5: the scan's record as rows: created here, filled from the JSON line each file row kept
        // (`files.record`, which then goes) by ``Catalog/moveRecordsOutOfJSON()``. IF NOT EXISTS
        // and the columns added only when missing, as for 4.
        Migration(sql: """
        CREATE TABLE IF NOT EXISTS symbols (
            file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            addon TEXT,
            quality INTEGER NOT NULL,
            orientation INTEGER,
            polygon TEXT NOT NULL,
            pass TEXT NOT NULL,
            page INTEGER,
            verdict TEXT NOT NULL CHECK (verdict IN ('accepted', 'rejected', 'jp-book-code')),
            isbn10 TEXT,
            isbn_jp_book_code TEXT,
            reason TEXT,
            detail TEXT,
            misread_of TEXT,
            paired_isbn13 TEXT,
            jp_book_code TEXT,
            printed_line TEXT,
            qualifier TEXT,
            printed_digits TEXT,
            PRIMARY KEY (file_id, position)
        );
        CREATE TABLE IF NOT EXISTS file_isbns (
            file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            isbn13 TEXT NOT NULL,
            isbn10 TEXT,
            addon TEXT,
            page INTEGER,
            qualifier TEXT,
            jp_book_code TEXT,
            PRIMARY KEY (file_id, position)
        );
        CREATE TABLE IF NOT EXISTS file_refusals (
            file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            reason TEXT NOT NULL,
            detail TEXT NOT NULL,
            misread_of TEXT,
            PRIMARY KEY (file_id, position)
        );
        CREATE TABLE IF NOT EXISTS candidates (
            file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            polygon TEXT NOT NULL,
            angle INTEGER NOT NULL,
            inverted INTEGER NOT NULL CHECK (inverted IN (0, 1)),
            strong INTEGER NOT NULL CHECK (strong IN (0, 1)),
            PRIMARY KEY (file_id, position)
        );
        """, then: { catalog throws(CatalogError) in try catalog.moveRecordsOutOfJSON() }),
        // 6: a writer of a version before 5 that opened the catalogue before a newer one migrated
        // it (the migration holds the write lock; that writer waits, then writes `files.record`)
        // is stopped by triggers with a sentence, not with SQLite's "no such column"; a sighting
        // keeps the Japanese book code read with its ISBN (a camera's sightings have no record).
        Migration(sql: "", then: { catalog throws(CatalogError) in
            try catalog.trapOlderWriters()
            try catalog.addColumn("jp_book_code TEXT", to: "sightings")
        }),
    ]

    /// What an older isbnscan, still writing a catalogue a newer one has migrated meanwhile,
    /// says when it tries to record a file (through ``olderWriterTriggers``).
    static let olderWriterMessage = "upgraded by a newer isbnscan while this one was writing it, and this isbnscan cannot "
        + "write it any more: nothing of this batch was recorded; run the newer isbnscan (the one that said it was "
        + "upgrading the catalogue)"

    /// The triggers that refuse a `files` row setting `record` (always NULL from version 6;
    /// before version 5 every writer of a file row set it to the file's JSON line), with
    /// ``olderWriterMessage``.
    static let olderWriterTriggers = """
        CREATE TRIGGER IF NOT EXISTS files_insert_by_an_older_isbnscan BEFORE INSERT ON files WHEN NEW.record IS NOT NULL
        BEGIN SELECT RAISE(ABORT, '\(olderWriterMessage)'); END;
        CREATE TRIGGER IF NOT EXISTS files_update_by_an_older_isbnscan BEFORE UPDATE OF record ON files WHEN NEW.record IS NOT NULL
        BEGIN SELECT RAISE(ABORT, '\(olderWriterMessage)'); END;
        """

    /// The version a catalogue has after ``migrations``.
    static var version: Int { migrations.count }

    /// The version from which a file's record is rows (before it: `files.record`, its JSON line).
    static let recordRows = 5

    /// The tables of a file's record's lists (version 5), each row keyed by `file_id` and `position`.
    static let recordTables = ["symbols", "file_isbns", "file_refusals", "candidates"]

    /// `files` rebuilt without `record` (version 5), its columns in the order migrations 1, 3
    /// and 5 gave them, its rows and `id`s kept.
    static let filesWithoutRecord = """
        CREATE TABLE files_new (
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
            scanned_at TEXT NOT NULL,
            device INTEGER,
            inode INTEGER,
            content_hash INTEGER,
            width INTEGER,
            height INTEGER,
            pages INTEGER,
            warning TEXT
        );
        INSERT INTO files_new (id, path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, error, warnings,
                               scanned_at, device, inode, content_hash, width, height, pages, warning)
        SELECT id, path, name, size, mtime_ns, status, isbn_count, refused_count, symbol_count, error, warnings,
               scanned_at, device, inode, content_hash, width, height, pages, warning FROM files;
        DROP TABLE files;
        ALTER TABLE files_new RENAME TO files;
        CREATE INDEX files_by_inode ON files(device, inode);
        """

    /// The columns of `files` that hold a record's own fields (version 5), as `ALTER TABLE ADD COLUMN` takes them.
    static let recordColumns = ["width INTEGER", "height INTEGER", "pages INTEGER", "warning TEXT"]
}
