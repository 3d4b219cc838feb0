// SPDX-License-Identifier: Apache-2.0
@testable import Catalog
@testable import ISBNScanCLI
import Foundation
import Testing
import TestSupport

/// `scan --db` as users and scripts use it: paths spelled differently, several writers at
/// once, output and records together, failures, reading commands that must not write.
@Suite struct CatalogIntegrityTests {
    /// Five images, five different ISBNs.
    static let fiveBooks = ["a.png": "isbn/png-gray8.png", "b.jpg": "isbn/jpeg-gray.jpg", "c.pgm": "isbn/pgm-p5.pgm",
                            "d.jpg": "isbn/jpeg-cmyk.jpg", "e.png": "isbn/png-rgb8.png"]

    func stats(_ db: String) throws -> String { try isbnscan(["catalog", "stats", "--db", db]).stdout }

    /// `s`, `./s`, `$PWD/s` and `s//.` are one folder: one row per file, one sighting per book.
    @Test func differentSpellingsOfOneFolderAreOneRowPerFile() throws {
        let shelf = try Shelf(Self.fiveBooks)
        defer { shelf.remove() }
        let parent = (shelf.path as NSString).deletingLastPathComponent, name = (shelf.path as NSString).lastPathComponent
        let db = shelf.path + ".db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        for spelling in [name, "./" + name, shelf.path, name + "//."] {
            let run = try isbnscan(["scan", "--rescan", "--db", db, spelling], in: parent)
            #expect(run.status == 0, "\(spelling)")
        }
        #expect(try stats(db).hasPrefix("""
            books: 5 (5 sightings, 0 from a camera)
            files: 5 (5 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable)

            """))
        // The key is the canonical path, whatever the spelling of the run that recorded it.
        let catalog = try Catalog(path: db, access: .read)
        #expect(try catalog.storedFile(path: Array((shelf.path + "/a.png").utf8))?.name == name + "//./a.png")
        // Without --rescan, every spelling finds the files unchanged.
        let again = try isbnscan(["scan", "--db", db, "./" + name + "/"], in: parent)
        #expect(again.stdout == "")
        #expect(again.stderr.contains("; 5 files unchanged since an earlier run"))
    }

    /// Two phones' folders with the same file names, sizes and times, each scanned from inside
    /// its folder: two books, not one.
    @Test func sameNamesSizesAndTimesInTwoFoldersAreTwoFiles() throws {
        let root = try Shelf([:])
        defer { root.remove() }
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        for (folder, source) in [("shelf1", "png-gray8.png"), ("shelf2", "addon-ean5.png")] {
            try FileManager.default.createDirectory(atPath: "\(root.path)/\(folder)", withIntermediateDirectories: true)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/\(source)"))
            bytes.append(Data(count: 5000 - bytes.count))  // equal sizes; what follows the image is not read
            let file = "\(root.path)/\(folder)/IMG_0001.png"
            try bytes.write(to: URL(fileURLWithPath: file))
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: file)
        }
        for folder in ["shelf1", "shelf2"] {
            let run = try isbnscan(["scan", "--db", "../books.db", "."], in: "\(root.path)/\(folder)")
            #expect(run.status == 0, "\(folder)")
            #expect(run.stdout.hasSuffix("/IMG_0001.png: " + (folder == "shelf1" ? "9780306406157\n" : "9780553293357\n")))
        }
        let list = try isbnscan(["catalog", "export", "--db", root.path + "/books.db", "--format", "isbn-list"])
        #expect(list.stdout == "9780306406157\n9780553293357\n")

        // The same file rewritten in place (same inode, size and time, other bytes) is scanned again.
        let first = "\(root.path)/shelf1/IMG_0001.png"
        let other = try Data(contentsOf: URL(fileURLWithPath: "\(root.path)/shelf2/IMG_0001.png"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: first))
        try handle.write(contentsOf: other)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: first)
        let rewritten = try isbnscan(["scan", "--db", root.path + "/books.db", first])
        #expect(rewritten.stdout == "9780553293357\n")
        #expect(rewritten.stderr == "")
    }

    /// The catalogue's journal files, which its writers make and remove while another scan walks
    /// the same folder, are no inputs; other files of that name elsewhere are.
    @Test func theCataloguesJournalFilesAreNoInputs() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "sub/books.db-journal": "text:x"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        #expect(ScanCommand.isJournal(Array((shelf.path + "/books.db-journal").utf8), of: db))
        #expect(ScanCommand.isJournal(Array((shelf.path + "/./books.db-wal").utf8), of: shelf.path + "/sub/../books.db"))
        #expect(ScanCommand.isJournal(Array((shelf.path + "/books.db-shm").utf8), of: db))
        #expect(!ScanCommand.isJournal(Array((shelf.path + "/books.db").utf8), of: db))
        #expect(!ScanCommand.isJournal(Array((shelf.path + "/sub/books.db-journal").utf8), of: db))
        #expect(!ScanCommand.isJournal(Array((shelf.path + "/other.db-journal").utf8), of: db))
    }

    /// Four writers on one new catalogue, over the same folder: each file recorded once, no error.
    @Test func concurrentWritersOnANewCatalogueEachRecordEveryFileOnce() throws {
        var layout: [String: String] = [:]
        for n in 0..<40 { layout[String(format: "img%03d.png", n)] = n % 2 == 0 ? "isbn/png-gray8.png" : "isbn/png-rgb8.png" }
        let shelf = try Shelf(layout)
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let processes = try (0..<4).map { _ -> (Process, Pipe) in
            let process = Process(), errors = Pipe()
            process.executableURL = URL(fileURLWithPath: isbnscanBinary)
            process.arguments = ["scan", "-q", "-j", "1", "--db", db, shelf.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in processes {
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(stderr == "")
        }
        #expect(try stats(db).hasPrefix("""
            books: 2 (40 sightings, 0 from a camera)
            files: 40 (40 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable)

            """))

        // Twelve writers of one file each on another new catalogue: the tables are created once.
        let fresh = shelf.path + "/fresh.db"
        let starters = try (0..<12).map { n -> (Process, Pipe) in
            let process = Process(), errors = Pipe()
            process.executableURL = URL(fileURLWithPath: isbnscanBinary)
            process.arguments = ["scan", "-q", "--db", fresh, shelf.path + String(format: "/img%03d.png", n)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in starters {
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(stderr == "")
        }
        #expect(try stats(fresh).contains("files: 12 (12 with an ISBN,"))
    }

    /// A file moved to another folder of the shelf is found by its device and inode: scanned
    /// again into its old row, so its book is counted once, and the next run finds it unchanged.
    @Test func aFileMovedToAnotherFolderIsStillOneRow() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/png-rgb8.png", "sub/placeholder": "text:x"])
        defer { shelf.remove() }
        let db = shelf.path + ".db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        #expect(try isbnscan(["scan", "-r", "--db", db, shelf.path]).status == 0)
        try FileManager.default.moveItem(atPath: shelf.path + "/a.png", toPath: shelf.path + "/sub/a.png")
        let moved = try isbnscan(["scan", "-r", "--db", db, shelf.path])
        #expect(moved.status == 0)
        #expect(moved.stdout == "\(shelf.path)/sub/a.png: 9780306406157\n")
        #expect(try stats(db).hasPrefix("""
            books: 2 (2 sightings, 0 from a camera)
            files: 2 (2 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable)

            """))
        let catalog = try Catalog(path: db, access: .read)
        #expect(try catalog.storedFile(path: Array((shelf.path + "/a.png").utf8)) == nil)
        #expect(try catalog.storedFile(path: Array((shelf.path + "/sub/a.png").utf8))?.status == "isbn")
        #expect(try isbnscan(["scan", "-r", "--db", db, shelf.path]).stdout == "")
    }

    /// A file the user may not read is recorded as a failure, with its error on every run (never
    /// "unchanged"), and scanned as soon as it can be read, without --rescan.
    @Test func aFileThatCannotBeOpenedIsAFailureTriedAgain() throws {
        let shelf = try Shelf(["photos/a.png": "isbn/png-gray8.png", "db/placeholder": "text:x"])
        defer { shelf.remove() }
        chmod(shelf.path + "/db", 0o777)
        let photo = shelf.path + "/photos/a.png", db = shelf.path + "/db/books.db"
        chmod(photo, 0o000)
        for _ in 0..<2 {
            let run = try isbnscan(["scan", "--db", db, photo], as: "65534")
            #expect(run.status == 1)
            #expect(run.stdout == "")
            #expect(run.stderr == "Error: \(photo): permission denied\n")
        }
        #expect(try stats(db).contains("files: 1 (0 with an ISBN, 0 with refused codes only, 0 without any barcode, 1 unreadable)\n"))
        chmod(photo, 0o644)
        let readable = try isbnscan(["scan", "--db", db, photo], as: "65534")
        #expect(readable.status == 0)
        #expect(readable.stdout == "9780306406157\n")
        #expect(try stats(db).contains("files: 1 (1 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable)\n"))
    }

    /// Ctrl-C in a --db run with -o, then the same command again: -o holds every file's result in
    /// input order, the interrupted run's lines as they were (from the catalogue), then the rest.
    @Test func resumingAfterCtrlCWithTheSameOutputWritesEveryResult() throws {
        var layout: [String: String] = [:]
        for n in 0..<40 { layout[String(format: "img%03d.png", n)] = n % 2 == 0 ? "isbn/png-gray8.png" : "negative/noise.png" }
        let shelf = try Shelf(layout)
        defer { shelf.remove() }
        let db = shelf.path + ".db", out = shelf.path + ".jsonl"
        defer { for file in [db, db + "-wal", db + "-shm", out] { try? FileManager.default.removeItem(atPath: file) } }
        let arguments = ["scan", "-q", "-j", "1", "--effort", "thorough", "--json", "--db", db, "-o", out, shelf.path]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupted once the catalogue holds some of the files.
        func recorded() -> Int { (try? Catalog(path: db, access: .read).statistics().files.values.reduce(0, +)) ?? 0 }
        let deadline = Date().addingTimeInterval(120)
        while recorded() == 0, process.isRunning, Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let first = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(first.count >= 1 && first.count < 40, "\(first.count) lines before Ctrl-C")

        let resumed = try isbnscan(arguments)
        #expect(resumed.status == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(Array(lines.prefix(first.count)) == first)
        let files = lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String }
        #expect(files == (0..<40).map { String(format: "\(shelf.path)/img%03d.png", $0) })
    }

    /// A writer that cannot get the lock in time stops, says why, and prints nothing it did not record.
    @Test func aResultThatCannotBeRecordedStopsTheRunAndIsNotPrinted() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/png-rgb8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        _ = try Catalog(path: db)
        let holder = try Connection(path: db)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let run = try isbnscan(["scan", "--db", db, "--json", "-o", shelf.path + "/out.jsonl", shelf.path + "/a.png", shelf.path + "/b.png"],
                               environment: ["ISBNSCAN_LOCK_TIMEOUT": "1"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: \(db): the catalogue stayed locked by another writer for 1 s "
                                     + "(ISBNSCAN_LOCK_TIMEOUT sets how long to wait); stopping: the results of 2 files not recorded are not printed either\n"))
        // The summary counts what the catalogue holds, not only what was scanned.
        let summary = try #require(run.stderr.split(separator: "\n").last)
        #expect(summary.hasPrefix("scanned 2 files: 2 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable (0 codes refused; "))
        #expect(summary.hasSuffix(" files/s); 0 recorded in the catalogue, 2 not recorded"))
        #expect(try String(contentsOfFile: shelf.path + "/out.jsonl", encoding: .utf8) == "")
    }

    /// `catalog merge` waits for a scan's transaction instead of failing.
    @Test func mergeWaitsForAWriter() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", other = shelf.path + "/other.db"
        #expect(try isbnscan(["scan", "--db", other, shelf.path + "/a.png"]).status == 0)
        _ = try Catalog(path: db)
        let holder = try Connection(path: db)
        try holder.execute("BEGIN IMMEDIATE")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = ["catalog", "merge", "--db", db, other]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Longer than SQLite's default 5 s busy timeout: merge must queue, not just wait once.
        usleep(5_500_000)
        try holder.execute("COMMIT")
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stderr == "\(other): added 1 file, 1 sighting, 0 refused codes, 0 book lookups\n")
    }

    /// With --db, -o holds every file's result, the catalogue's for unchanged files, in input order.
    @Test(arguments: [["--csv"], ["--json"], [], ["--unique"]])
    func theOutputFileHoldsEveryResultWhenFilesAreUnchanged(format: [String]) throws {
        let shelf = try Shelf(["photos/a.png": "isbn/png-gray8.png", "photos/b.png": "rejected/jan.png", "photos/c.png": "isbn/addon-ean5.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", out = shelf.path + "/books.out", photos = shelf.path + "/photos"
        let first = try isbnscan(["scan", "-r", "--db", db, "-o", out] + format + [photos])
        #expect(first.status == 0)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        // CSV: the header and a row per file; JSON: a line per file; text and --unique: a line per ISBN.
        #expect(written.utf8.filter { $0 == UInt8(ascii: "\n") }.count == (format == ["--csv"] ? 4 : format == ["--json"] ? 3 : 2))
        let second = try isbnscan(["scan", "-r", "--db", db, "-o", out] + format + [photos])
        #expect(second.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == written)
        // A file added since: scanned, and written at its place among the catalogue's.
        try FileManager.default.copyItem(atPath: "\(testImages)/isbn/png-rgb8.png", toPath: photos + "/b2.png")
        let third = try isbnscan(["scan", "-r", "--db", db, "-o", out, "--json", photos])
        let files = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["file"] as! String
        }
        #expect(third.status == 0)
        #expect(files == ["a.png", "b.png", "b2.png", "c.png"].map { photos + "/" + $0 })
    }

    /// With --db and -o on a full disk the run stops with status 3; once space is freed, the same
    /// command writes every file's result to -o, the catalogue's for the files it recorded.
    @Test func theOutputFileOnAFullDiskIsWholeOnceSpaceIsFreed() throws {
        // A 64 KiB tmpfs filled up, in a private mount namespace (needs root or user namespaces).
        guard try isbnscan(["-m", "/bin/true"], executable: "/usr/bin/unshare").status == 0 else { return }
        let shelf = try Shelf(["photos/a.png": "isbn/png-gray8.png", "photos/b.png": "isbn/png-rgb8.png", "photos/c.png": "negative/noise.png"])
        defer { shelf.remove() }
        let p = shelf.path, disk = shelf.path + "/disk"
        let scan = "\"$0\" scan --json --db '\(p)/books.db' -o '\(disk)/out.jsonl' '\(p)/photos'"
        let script = """
            mkdir '\(disk)' && mount -t tmpfs -o size=64k none '\(disk)' || exit 99
            dd if=/dev/zero of='\(disk)/filler' bs=4k 2>/dev/null
            \(scan) > '\(p)/full.out' 2> '\(p)/full.err'; echo $? > '\(p)/full.status'
            ls -A '\(disk)' > '\(p)/full.ls'
            rm '\(disk)/filler'
            \(scan) > '\(p)/freed.out' 2> '\(p)/freed.err'; echo $? > '\(p)/freed.status'
            cp '\(disk)/out.jsonl' '\(p)/out.jsonl'
            """
        let run = try isbnscan(["-m", "/bin/sh", "-c", script, isbnscanBinary], executable: "/usr/bin/unshare")
        #expect(run.status == 0, "\(run.stderr)")
        func read(_ name: String) throws -> String { try String(contentsOfFile: "\(p)/\(name)", encoding: .utf8) }

        #expect(try read("full.status") == "3\n")
        let fullErr = try read("full.err")
        #expect(fullErr.contains("Error: \(disk)/out.jsonl: cannot write the output file: write failed: No space left on device\n"))
        // Nothing left on the full disk but the filler: no output file, no temporary file.
        #expect(try read("full.ls") == "filler\n")

        #expect(try read("freed.status") == "0\n")
        // The same results as a run without a catalogue, every file in input order.
        let reference = try isbnscan(["scan", "--json", "-o", "\(p)/reference.jsonl", "\(p)/photos"])
        #expect(reference.status == 0)
        let written = try read("out.jsonl")
        #expect(written == (try read("reference.jsonl")))
        let files = written.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String
        }
        #expect(files == ["a.png", "b.png", "c.png"].map { "\(p)/photos/\($0)" })
        // The files the full-disk run recorded were not scanned again: -o has them from the catalogue.
        let recorded = try Catalog(path: "\(p)/books.db", access: .read).statistics().files.values.reduce(0, +)
        #expect(recorded == 3)
        #expect(try read("freed.err").contains(" unchanged since an earlier run, counted from the catalogue\n"))
    }

    /// Japanese book codes, add-ons and refusals in one picture (TestImages/jpbook/shelf.png): the
    /// catalogue's result for the unchanged file is byte for byte what the scan wrote, in every format.
    @Test(arguments: [["--json"], ["--csv"], ["--all"], []])
    func theCataloguesResultIsWhatTheScanWrote(format: [String]) throws {
        let shelf = try Shelf(["shelf.png": "jpbook/shelf.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", photo = shelf.path + "/shelf.png"
        let first = try isbnscan(["scan", "--addons", "--db", db, "-o", shelf.path + "/fresh"] + format + [photo])
        #expect(first.status == 0)
        let fresh = try String(contentsOfFile: shelf.path + "/fresh", encoding: .utf8)
        #expect(fresh.contains(format == ["--csv"] ? ",9784048930659,,EAN-13,1923055032002,,jp-book-code,,,,,JPY 3200,,,3055\r\n"
                               : format == ["--json"] ? #""verdict": "jp-book-code", "reason": null, "isbn13": "9784048930659""#
                               : format == ["--all"] ? "add-on 51299 (USD 12.99)\n" : "9780553293357 51299\n"))
        let again = try isbnscan(["scan", "--addons", "--db", db, "-o", shelf.path + "/again"] + format + [photo])
        #expect(again.status == 0)
        #expect(again.stderr.hasPrefix("\(photo): unchanged since it was catalogued on "))
        #expect(try String(contentsOfFile: shelf.path + "/again", encoding: .utf8) == fresh)
    }

    /// A catalogue of schema version 4 keeps the file's result as its JSON line: migrated by the
    /// scan that writes it (saying so), it gives what a scan prints, in every format; read before,
    /// it is not changed.
    @Test func aVersion4CataloguesResultsAreWhatAScanPrints() throws {
        let shelf = try Shelf(["shelf.png": "jpbook/shelf.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", photo = shelf.path + "/shelf.png"
        var fresh: [[String]: String] = [:]
        for format in [["--json"], ["--csv"], ["--all"], []] {
            fresh[format] = try isbnscan(["scan", "--addons"] + format + [photo]).stdout
        }
        // Version 4 as isbnscan wrote it: the file's identity, its JSON line and its sightings.
        _ = try Catalog(path: db, upTo: 4)
        let identity = try #require(FileIdentity(path: Array(photo.utf8)))
        let connection = try Connection(path: db)
        try Statement(connection, """
            INSERT INTO files (path, name, size, mtime_ns, device, inode, content_hash, status, isbn_count, refused_count,
                               symbol_count, record, scanned_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'isbn', 2, 1, 4, ?, '2026-11-30T10:00:00.000Z')
            """).run([.blob(identity.path), .text(photo), .int(identity.size), .int(identity.modificationNanoseconds),
                      .int(identity.device), .int(identity.inode), .int(identity.contentHash),
                      .text(String(try #require(fresh[["--json"]]).dropLast()))])
        try connection.execute("""
            INSERT INTO sightings (isbn13, isbn10, file_id, source, polygon, seen_at)
            VALUES ('9784048930659', '4048930656', 1, '\(photo)', '[]', '2026-11-30T10:00:00.000Z');
            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let stats = try isbnscan(["catalog", "stats", "--db", db])
        #expect(stats.status == 0 && stats.stderr == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        for (index, format) in [["--json"], ["--csv"], ["--all"], []].enumerated() {
            let out = shelf.path + "/out\(index)"
            let run = try isbnscan(["scan", "--addons", "--db", db, "-o", out] + format + [photo])
            #expect(run.status == 0)
            let note = "Note: \(db): upgrading the catalogue from schema version 4 to 6 (isbnscan versions before it cannot write it afterwards)\n"
            #expect(run.stderr.hasPrefix(index == 0 ? note + "\(photo): unchanged since" : "\(photo): unchanged since"), "\(format)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == fresh[format], "\(format)")
        }
    }

    /// A version 4 JSON line the migration cannot read leaves no record: the file is scanned
    /// again, even one without any symbol (whose counts alone would pass for a record), and
    /// `-o` holds that fresh scan's result.
    @Test func aVersion4LineThatCannotBeReadIsScannedAgain() throws {
        let shelf = try Shelf(["blank.png": "negative/blank.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", photo = shelf.path + "/blank.png"
        let fresh = try isbnscan(["scan", "--json", photo])
        #expect(fresh.status == 4)
        _ = try Catalog(path: db, upTo: 4)
        let identity = try #require(FileIdentity(path: Array(photo.utf8)))
        try Statement(try Connection(path: db), """
            INSERT INTO files (path, name, size, mtime_ns, device, inode, content_hash, status, isbn_count, refused_count,
                               symbol_count, record, scanned_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'no-barcode', 0, 0, 0, '{"file": "cut short', '2026-11-30T10:00:00.000Z')
            """).run([.blob(identity.path), .text(photo), .int(identity.size), .int(identity.modificationNanoseconds),
                      .int(identity.device), .int(identity.inode), .int(identity.contentHash)])
        let out = shelf.path + "/out.jsonl"
        let run = try isbnscan(["scan", "--json", "--db", db, "-o", out, photo])
        #expect(run.status == 4)
        #expect(run.stderr.hasPrefix("Note: \(db): upgrading the catalogue from schema version 4 to 6"))
        #expect(!run.stderr.contains("unchanged since"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == fresh.stdout)
        // Scanned again, its row is whole: the next run finds it unchanged.
        let again = try isbnscan(["scan", "--json", "--db", db, "-o", out, photo])
        #expect(again.stderr.hasPrefix("\(photo): unchanged since it was catalogued on "))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == fresh.stdout)
    }

    /// A record the catalogue cannot read (its table damaged) stops the run with the
    /// catalogue's error: it is not taken for a record to scan again, nothing is scanned and the
    /// `-o` file is not written.
    @Test func aRecordThatCannotBeReadStopsTheRun() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", photo = shelf.path + "/a.png", out = shelf.path + "/out.txt"
        #expect(try isbnscan(["scan", "--db", db, photo]).status == 0)
        try Connection(path: db).execute("ALTER TABLE symbols RENAME COLUMN printed_digits TO digits")
        let run = try isbnscan(["scan", "--db", db, "-o", out, photo])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: \(db): no such column: printed_digits (SQLite 1) in: SELECT type, data, addon"), "\(run.stderr)")
        #expect(!run.stderr.contains("unchanged since"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.path).filter { $0.contains(".isbnscan-") } == [])
    }

    /// A file's row the catalogue cannot read (its table damaged) stops the run with the
    /// catalogue's error before anything is scanned: the file is not taken for a new one.
    @Test func aFileRowThatCannotBeReadStopsTheRunBeforeScanning() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db", photo = shelf.path + "/a.png"
        #expect(try isbnscan(["scan", "--db", db, photo]).status == 0)
        try Connection(path: db).execute("ALTER TABLE files RENAME COLUMN content_hash TO hash")
        let run = try isbnscan(["scan", "--db", db, photo])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: \(db): no such column: content_hash (SQLite 1) in: SELECT id, path, name, size"), "\(run.stderr)")
        #expect(!run.stderr.contains("not recorded"), "\(run.stderr)")
    }

    /// A closed pipe stops a --db run as it stops one without --db.
    @Test func aClosedPipeStopsTheRunWithDB() throws {
        var layout: [String: String] = [:]
        for n in 0..<100 { layout[String(format: "img%03d.png", n)] = "isbn/png-gray8.png" }
        let shelf = try Shelf(layout)
        defer { shelf.remove() }
        let db = shelf.path + ".db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = ["scan", "-q", "-j", "1", "--json", "--db", db, shelf.path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try pipe.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        let recorded = try #require(try stats(db).split(separator: "\n").dropFirst().first)
        let count = Int(recorded.split(separator: " ")[1])!
        // Recorded: the files of the first commit (at most 32 or a quarter of a second's worth),
        // when the pipe is found closed, and those in progress then.
        #expect(count > 0 && count < 40, "\(recorded)")
    }

    /// A path that does not exist is an error, not a catalogue row.
    @Test func aMissingPathIsNotRecorded() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let run = try isbnscan(["scan", "--db", db, shelf.path + "/a.png", shelf.path + "/mistyped.png"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: \(shelf.path)/mistyped.png: "))
        #expect(try stats(db).contains("files: 1 (1 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable)\n"))
    }

    /// Reading commands never write: another program's SQLite file and an empty file are refused
    /// and left byte for byte as they were.
    @Test func readingCommandsRefuseWhatIsNoCatalogueWithoutTouchingIt() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "empty.db": ""])
        defer { shelf.remove() }
        let other = shelf.path + "/notes.db", empty = shelf.path + "/empty.db"
        try Connection(path: other).execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('milk')")
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        for action in ["stats", "list", "export"] {
            let run = try isbnscan(["catalog", action, "--db", other])
            #expect(run.status == 1)
            #expect(run.stderr == "Error: \(other): not an isbnscan catalogue (an SQLite database of another program); left as it is\n")
            let onEmpty = try isbnscan(["catalog", action, "--db", empty])
            #expect(onEmpty.status == 1)
            #expect(onEmpty.stderr == "Error: \(empty): an empty catalogue: nothing is recorded in it yet\n")
        }
        let scan = try isbnscan(["scan", "--db", other, shelf.path + "/a.png"])
        #expect(scan.status == 1)
        #expect(scan.stdout == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
    }

    /// Another program's SQLite file in WAL mode, its table still only in the -wal (never
    /// checkpointed): every command that writes a catalogue refuses it, and its main file and
    /// -wal stay byte for byte as they were (a read-write connection closing on it would
    /// checkpoint the -wal into the main file and delete it).
    @Test func writingCommandsLeaveAForeignWALDatabaseByteForByte() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let good = shelf.path + "/good.db", made = shelf.path + "/made.db"
        #expect(try isbnscan(["scan", "--db", good, shelf.path + "/a.png"]).status == 0)
        // The file and its -wal copied while the connection that wrote them is still open.
        let python = """
            import shutil, sqlite3, sys
            made = sys.argv[1]
            c = sqlite3.connect(made)
            c.execute("PRAGMA journal_mode = WAL"); c.execute("PRAGMA wal_autocheckpoint = 0")
            c.execute("CREATE TABLE notes (text TEXT)"); c.execute("INSERT INTO notes VALUES ('milk')"); c.commit()
            for n in range(int(sys.argv[2])):
                shutil.copyfile(made, f"{made}.{n}"); shutil.copyfile(made + "-wal", f"{made}.{n}-wal")
            """
        let commands: [[String]] = [["scan", "--db", "DB", shelf.path + "/a.png"], ["catalog", "lookup", "--db", "DB"],
                                    ["catalog", "remove", "--db", "DB", "9780306406157"], ["catalog", "merge", "--db", "DB", good],
                                    ["camera", "--device", "/nonexistent/video9", "--db", "DB"]]
        let writer = try isbnscan(["-c", python, made, String(commands.count)], executable: "/usr/bin/python3")
        #expect(writer.status == 0, "\(writer.stderr)")
        for (n, command) in commands.enumerated() {
            let db = "\(made).\(n)"
            let main = try Data(contentsOf: URL(fileURLWithPath: db)), wal = try Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
            #expect(wal.count > 32, "the -wal holds the table")
            let run = try isbnscan(command.map { $0 == "DB" ? db : $0 })
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr == "Error: \(db): not an isbnscan catalogue (an SQLite database of another program); left as it is\n",
                    "\(command)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == main, "\(command): main file changed")
            #expect((try? Data(contentsOf: URL(fileURLWithPath: db + "-wal"))) == wal, "\(command): -wal changed")
        }
    }

    /// A catalogue merged in whose sightings hold codes that are no ISBN (written by another
    /// program): those are left out, each named with its reason, and the rest merged.
    @Test func mergeLeavesOutCodesThatAreNoISBN() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let other = shelf.path + "/other.db", target = shelf.path + "/target.db"
        #expect(try isbnscan(["scan", "--db", other, shelf.path + "/a.png"]).status == 0)
        let long = String(repeating: "1", count: 10_000)
        let connection = try Connection(path: other)
        for (n, code) in ["garbage", long, "9780306406158", "garbage"].enumerated() {
            try Statement(connection, """
                INSERT INTO sightings (isbn13, device, frame, source, polygon, seen_at)
                VALUES (?, '/dev/video0', ?, '/dev/video0', '[]', '2026-12-01T10:00:00.000Z')
                """).run([.text(code), .int(Int64(n + 1))])
        }
        try connection.execute("""
            INSERT INTO lookups (isbn13, found, provider, fetched_at) VALUES ('9780306406158', 0, 'google', '2026-12-01T10:00:00.000Z')
            """)
        let run = try isbnscan(["catalog", "merge", "--db", target, other])
        #expect(run.status == 0)
        #expect(run.stderr == """
            Warning: \(other): '11111111111111111111… (10000 characters)' is no valid ISBN (length): 1 sighting not merged
            Warning: \(other): '9780306406158' is no valid ISBN (check-digit): 1 sighting not merged
            Warning: \(other): 'garbage' is no valid ISBN (non-digit): 2 sightings not merged
            \(other): added 1 file, 1 sighting, 0 refused codes, 0 book lookups

            """)
        let merged = try Catalog(path: target, access: .read)
        #expect(try merged.books().map(\.isbn13) == ["9780306406157"])
        #expect(try merged.cachedLookups().isEmpty)
    }

    /// An export started while the first writer of a new catalogue holds its lock, the tables
    /// not committed yet: it waits for that writer and exports what it committed. (The writer is
    /// python3's sqlite3 replaying a catalogue's dump in one transaction, committing a second
    /// after the export started.)
    @Test func anExportRacingTheFirstWriterWaitsForIt() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let reference = shelf.path + "/reference.db", new = shelf.path + "/new.db"
        #expect(try isbnscan(["scan", "--db", reference, shelf.path + "/a.png"]).status == 0)
        let python = """
            import json, sqlite3, subprocess, sys, time
            binary, reference, new = sys.argv[1:4]
            r = sqlite3.connect(reference)
            dump = [s for s in r.iterdump() if s not in ("BEGIN TRANSACTION;", "COMMIT;")]
            version = r.execute("PRAGMA user_version").fetchone()[0]
            c = sqlite3.connect(new, isolation_level=None)
            c.execute("PRAGMA journal_mode = WAL")
            c.execute("BEGIN IMMEDIATE")
            for s in dump: c.execute(s)
            c.execute(f"PRAGMA user_version = {version}")
            export = subprocess.Popen([binary, "catalog", "export", "--db", new, "--format", "isbn-list"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(1)  # the export finds the file empty and locked meanwhile
            c.execute("COMMIT")
            out, err = export.communicate()
            json.dump({"status": export.returncode, "stdout": out, "stderr": err}, sys.stdout)
            """
        let race = try isbnscan(["-c", python, isbnscanBinary, reference, new], executable: "/usr/bin/python3")
        #expect(race.status == 0, "\(race.stderr)")
        let export = try #require(try JSONSerialization.jsonObject(with: Data(race.stdout.utf8)) as? [String: Any])
        #expect(export["stderr"] as? String == "")
        #expect(export["stdout"] as? String == "9780306406157\n")
        #expect(export["status"] as? Int == 0)
    }

    /// A merge that fails on a source which is no catalogue leaves no new --db behind, and merges
    /// none of the sources when one of them is refused.
    @Test func aFailedMergeCreatesNoCatalogue() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "empty.db": "", "text.db": "text:" + String(repeating: "not a database\n", count: 100)])
        defer { shelf.remove() }
        let foreign = shelf.path + "/notes.db", good = shelf.path + "/good.db", target = shelf.path + "/new.db"
        try Connection(path: foreign).execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('milk')")
        #expect(try isbnscan(["scan", "--db", good, shelf.path + "/a.png"]).status == 0)
        let cases: [([String], String)] = [
            ([foreign], "Error: \(foreign): not an isbnscan catalogue (an SQLite database of another program); left as it is\n"),
            ([shelf.path + "/empty.db"], "Error: \(shelf.path)/empty.db: an empty catalogue: nothing is recorded in it yet\n"),
            ([shelf.path + "/text.db"], "Error: \(shelf.path)/text.db: not an isbnscan catalogue (not an SQLite database)\n"),
            ([good, foreign], "Error: \(foreign): not an isbnscan catalogue (an SQLite database of another program); left as it is\n")]
        for (sources, message) in cases {
            let run = try isbnscan(["catalog", "merge", "--db", target] + sources)
            #expect(run.status == 1, "\(sources)")
            #expect(run.stderr == message, "\(sources)")
            for file in [target, target + "-wal", target + "-shm", target + "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: file), "\(file) after \(sources)")
            }
        }
        // Into an existing catalogue: nothing of the good source is merged either.
        let existing = shelf.path + "/existing.db"
        _ = try Catalog(path: existing)
        let run = try isbnscan(["catalog", "merge", "--db", existing, good, foreign])
        #expect(run.status == 1)
        #expect(try Catalog(path: existing, access: .read).statistics().files.values.reduce(0, +) == 0)
    }

    /// Only the --db being written is migrated, after a note on stderr; merge's sources are only read.
    @Test func onlyTheCatalogueWrittenIsMigratedAndItSaysSo() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let old = shelf.path + "/old.db", target = shelf.path + "/target.db"
        _ = try Catalog(path: old, upTo: 2)
        let stats = try isbnscan(["catalog", "stats", "--db", old])
        #expect(stats.status == 4)
        #expect(stats.stderr == "")
        let merge = try isbnscan(["catalog", "merge", "--db", target, old])
        #expect(merge.status == 0)
        #expect(merge.stderr == "\(old): added 0 files, 0 sightings, 0 refused codes, 0 book lookups\n")
        #expect(try Catalog(path: old, access: .read).openedVersion == 2)
        let scan = try isbnscan(["scan", "--db", old, shelf.path + "/a.png"])
        #expect(scan.status == 0)
        #expect(scan.stderr == "Note: \(old): upgrading the catalogue from schema version 2 to 6 (isbnscan versions before it cannot write it afterwards)\n")
        #expect(try Catalog(path: old, access: .read).openedVersion == 6)
    }

    /// A --db where the user may not create files: what to act on, not SQLite's words; reading a
    /// catalogue in a folder the user cannot write works.
    @Test func aCatalogueInAFolderTheUserCannotWrite() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "locked/placeholder": "text:x"])
        defer { shelf.remove() }
        chmod(shelf.path + "/locked", 0o755)  // root's: others may read, not write
        let existing = shelf.path + "/locked/books.db"
        #expect(try isbnscan(["scan", "--db", existing, shelf.path + "/a.png"]).status == 0)
        let create = try isbnscan(["scan", "--db", shelf.path + "/locked/new.db", shelf.path + "/a.png"], as: "65534")
        #expect(create.status == 1)
        #expect(create.stdout == "")
        #expect(create.stderr == "Error: \(shelf.path)/locked/new.db: cannot create the catalogue: Permission denied\n")
        let write = try isbnscan(["scan", "--db", existing, shelf.path + "/a.png"], as: "65534")
        #expect(write.status == 1)
        #expect(write.stderr == "Error: \(existing): cannot write the catalogue: Permission denied\n")
        // The file writable, its folder not: WAL's -wal file cannot be made there.
        chmod(existing, 0o666)
        let journal = try isbnscan(["scan", "--db", existing, "--rescan", shelf.path + "/a.png"], as: "65534")
        #expect(journal.status == 1)
        #expect(journal.stderr == "Error: \(existing): cannot create its journal \(existing)-wal (WAL needs the folder \(shelf.path)/locked writable): Permission denied\n")
        chmod(existing, 0o644)
        let read = try isbnscan(["catalog", "stats", "--db", existing], as: "65534")
        #expect(read.status == 0)
        #expect(read.stdout.hasPrefix("books: 1 (1 sightings, 0 from a camera)\n"))
    }

    /// The same folder scanned into two catalogues, merged: each file's sightings once.
    @Test func mergingTheSameFilesCountsTheirSightingsOnce() throws {
        let shelf = try Shelf(Self.fiveBooks)
        defer { shelf.remove() }
        let a = shelf.path + ".a.db", b = shelf.path + ".b.db"
        defer { for db in [a, b] { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } } }
        #expect(try isbnscan(["scan", "--db", a, shelf.path]).status == 0)
        #expect(try isbnscan(["scan", "--db", b, shelf.path]).status == 0)
        let merge = try isbnscan(["catalog", "merge", "--db", a, b])
        #expect(merge.status == 0)
        #expect(merge.stderr == "\(b): added 0 files, 0 sightings, 0 refused codes, 0 book lookups\n")
        #expect(try stats(a).hasPrefix("books: 5 (5 sightings, 0 from a camera)\nfiles: 5 "))
    }
}

/// Smaller points of the same review: each seen, each with its test.
@Suite struct CatalogSmallerPointsTests {
    /// A list that never ends is refused with a clear error instead of filling memory.
    @Test func anEndlessFileListIsRefused() throws {
        let lines = try isbnscan(["scan", "--files-from", "/dev/zero"])
        #expect(lines.status == 2)
        #expect(lines.stderr.hasPrefix("Error: /dev/zero line 1 holds a NUL byte: for a NUL-separated list (find -print0) add -0\n"))
        let nul = try isbnscan(["scan", "--files-from", "/dev/zero", "-0"])
        #expect(nul.status == 1)
        #expect(nul.stderr == "Error: /dev/zero: the file list is longer than 32 MiB; give it in parts\n")
        // The issue's own command: the list on standard input.
        let piped = try isbnscan(["scan", "--files-from", "-", "-0"], stdinFile: "/dev/zero")
        #expect(piped.status == 1)
        #expect(piped.stderr == "Error: standard input: the file list is longer than 32 MiB; give it in parts\n")
        let shelf = try Shelf(["list.txt": "text:" + String(repeating: "a", count: 5000) + "\n"])
        defer { shelf.remove() }
        let long = try isbnscan(["scan", "--files-from", shelf.path + "/list.txt"])
        #expect(long.status == 1)
        #expect(long.stderr == "Error: \(shelf.path)/list.txt line 1 is 5000 bytes long, longer than any path (4096): not a list of paths?\n")
    }

    /// A file name a spreadsheet would run as a formula gets a leading quote in CSV.
    @Test func csvFileNamesCannotBeFormulas() throws {
        let shelf = try Shelf(["=HYPERLINK(x).png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let run = try isbnscan(["scan", "--csv", "--db", shelf.path + "/books.db", "=HYPERLINK(x).png"], in: shelf.path)
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "\r\n")[1].hasPrefix("'=HYPERLINK(x).png,9780306406157,"))
        let export = try isbnscan(["catalog", "export", "--db", shelf.path + "/books.db"])
        #expect(export.stdout.components(separatedBy: "\r\n")[1].contains(",'=HYPERLINK(x).png,"))
    }

    /// --roi given twice is a usage error, not the last one taken silently.
    @Test func aRepeatedRegionIsAUsageError() throws {
        let run = try isbnscan(["scan", "--roi", "0,0,1,1", "--roi", "0,0.4,1,0.2", "\(testImages)/isbn/png-gray8.png"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --roi given 2 times; give one region\n"))
    }

    /// camera --db leaves no catalogue behind when the device cannot be opened.
    @Test func cameraDoesNotCreateACatalogueForADeviceThatFails() throws {
        let db = NSTemporaryDirectory() + "isbnscan-camera-\(UUID().uuidString).db"
        let run = try isbnscan(["camera", "--device", "/nonexistent/video9", "--db", db])
        #expect(run.status == 1)
        #expect(run.stderr.contains("/nonexistent/video9"))
        #expect(!FileManager.default.fileExists(atPath: db))
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
    }
}
