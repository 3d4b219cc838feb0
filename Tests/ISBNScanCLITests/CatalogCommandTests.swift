// SPDX-License-Identifier: Apache-2.0
import Catalog
import Foundation
import ISBN
import Records
import Testing
import TestSupport

/// `scan --db` and `isbnscan catalog`: what is recorded, resuming after SIGKILL, the subcommands.
@Suite struct CatalogCommandTests {
    static let images = ["png-gray8.png", "jpeg-gray.jpg", "pgm-p5.pgm", "jpeg-cmyk.jpg", "png-rgb8.png", "addon-ean5.png"]

    /// A shelf of `count` images (the same few fixtures, renamed) plus a non-image file.
    func shelf(count: Int) throws -> Shelf {
        var files: [String: String] = ["notes.txt": "text:hello", "broken.jpg": ""]
        for n in 0..<count { files[String(format: "img%04d", n) + "." + Self.images[n % Self.images.count].split(separator: ".").last!] = "isbn/" + Self.images[n % Self.images.count] }
        return try Shelf(files)
    }

    @Test func recordsMatchTheJSONOutputOfTheSameScan() throws {
        let shelf = try Shelf(["a.png": "isbn/addon-ean5.png", "b.png": "rejected/jan.png", "c.jpg": "", "d.png": "negative/blank.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let run = try isbnscan(["scan", "--json", "--addons", "--db", db, shelf.path + "/a.png", shelf.path + "/b.png",
                                shelf.path + "/c.jpg", shelf.path + "/d.png"])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let catalog = try Catalog(path: db)
        for (name, line) in zip(["a.png", "b.png", "c.jpg", "d.png"], lines) {
            let stored = try #require(try catalog.storedFile(path: Array((shelf.path + "/" + name).utf8)))
            let record = try catalog.fileRecord(of: stored, named: shelf.path + "/" + name, options: RecordOptions(ranges: .bundled))
            #expect(record?.json.encoded == line)
        }
        #expect(try catalog.storedFile(path: Array((shelf.path + "/a.png").utf8))?.status == "isbn")
        #expect(try catalog.storedFile(path: Array((shelf.path + "/b.png").utf8))?.status == "refused")
        #expect(try catalog.storedFile(path: Array((shelf.path + "/c.jpg").utf8))?.status == "error")
        #expect(try catalog.storedFile(path: Array((shelf.path + "/d.png").utf8))?.status == "no-barcode")
        let books = try catalog.books()
        #expect(books.map(\.isbn13) == ["9780553293357"])
        #expect(books.first?.addOn == "51299")
        #expect(try catalog.statistics().refusals == ["prefix": 1])
    }

    /// `-o` naming the catalogue would replace every book it holds with text: a usage error,
    /// whether the catalogue exists already or not, under any spelling of its path.
    @Test func theOutputCannotBeTheCatalogue() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-o-db-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let db = directory + "/books.db", photo = "\(testImages)/isbn/png-gray8.png"
        let fresh = try isbnscan(["scan", "--db", db, "-o", directory + "/./books.db", photo])
        #expect(fresh.status == 2)
        #expect(fresh.stderr.contains("Error: --output \(directory)/./books.db is the --db catalogue \(db); refusing to overwrite it\n"))
        #expect(!FileManager.default.fileExists(atPath: db))
        let first = try isbnscan(["scan", "--db", db, photo])
        #expect(first.status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let again = try isbnscan(["scan", "--db", db, "-o", db, "--rescan", photo])
        #expect(again.status == 2)
        #expect(again.stderr.contains("Error: --output \(db) is the --db catalogue \(db); refusing to overwrite it\n"))
        #expect(again.stdout == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        let list = try isbnscan(["catalog", "list", "--db", db])
        #expect(list.stdout.contains("9780306406157"))
    }

    /// `-o` naming a journal file of the catalogue (before it exists, or through a symbolic
    /// link) would overwrite the writes it holds: a usage error, and nothing is scanned.
    @Test func theOutputCannotBeAJournalOfTheCatalogue() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        #expect(symlink(db + "-shm", shelf.path + "/out.txt") == 0)
        for (spelling, suffix) in [(db + "-wal", "-wal"), (shelf.path + "/./books.db-journal", "-journal"), (shelf.path + "/out.txt", "-shm")] {
            let run = try isbnscan(["scan", "--db", db, "-o", spelling, shelf.path + "/a.png"])
            #expect(run.status == 2, "\(spelling)")
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("Error: --output \(spelling) is \(db)\(suffix), a journal file of the --db catalogue \(db); refusing to overwrite it\n"), "\(spelling)")
        }
        #expect(!FileManager.default.fileExists(atPath: db))
        #expect(!FileManager.default.fileExists(atPath: db + "-wal"))
    }

    @Test func aSecondRunSkipsUnchangedFilesAndRescanForces() throws {
        let shelf = try shelf(count: 6)
        defer { shelf.remove() }
        let db = NSTemporaryDirectory() + "isbnscan-resume-\(UUID().uuidString).db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        let first = try isbnscan(["scan", "-r", "--db", db, shelf.path])
        #expect(first.stdout.split(separator: "\n").count == 6)
        #expect(first.status == 1)  // broken.jpg
        let second = try isbnscan(["scan", "-r", "--db", db, shelf.path])
        #expect(second.stdout == "")
        #expect(second.status == 1)
        #expect(second.stderr.contains("scanned 7 files: 6 with an ISBN, 0 with refused codes only, 0 without any barcode, 1 unreadable"))
        #expect(second.stderr.contains("; 6 files unchanged since an earlier run, counted from the catalogue; left out 1 non-image file"))
        // The file that could not be read is tried again, and says so again.
        #expect(second.stderr.hasPrefix("Error: \(shelf.path)/broken.jpg: empty file (0 bytes)\n"))
        // A changed file is scanned again.
        let touched = shelf.path + "/img0000.png"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: touched)
        let third = try isbnscan(["scan", "-r", "--db", db, shelf.path])
        #expect(third.stdout == "\(touched): 9780306406157\n")
        let forced = try isbnscan(["scan", "-r", "--rescan", "--db", db, shelf.path])
        #expect(forced.stdout.split(separator: "\n").count == 6)
        #expect(!forced.stderr.contains("unchanged since"))
    }

    /// An unchanged file named on the command line gets one line on stderr; a folder's unchanged
    /// files only the summary's count; none of their results, warnings or errors are printed again.
    @Test func unchangedFilesAreNamedOnStderrAndNothingOfThemIsPrintedAgain() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "rejected/jan.png", "c.jpg": "", "d.png": "negative/blank.png"])
        defer { shelf.remove() }
        let db = shelf.path + "/books.db"
        let a = shelf.path + "/a.png", b = shelf.path + "/b.png"
        let first = try isbnscan(["scan", "--db", db, "--json", a])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").count == 1)
        let scannedAt = try #require(try Catalog(path: db).storedFile(path: Array(a.utf8))).scannedAt
        let again = try isbnscan(["scan", "--db", db, "--json", a])
        #expect(again.status == 0)
        #expect(again.stdout == "")
        #expect(again.stderr == "\(a): unchanged since it was catalogued on \(scannedAt), not scanned again (--rescan to scan it)\n")
        #expect(try isbnscan(["scan", "--db", db, "--json", "-q", a]).stderr == "")
        let rescanned = try isbnscan(["scan", "--db", db, "--json", "--rescan", a])
        #expect(rescanned.stdout.split(separator: "\n").count == 1)
        #expect(rescanned.stderr == "")

        // A folder: its warnings and errors appear on the first run only.
        let folder = try isbnscan(["scan", "--db", db, shelf.path])
        #expect(folder.status == 1)
        #expect(folder.stderr.contains("Warning: \(b): EAN-13 4901234567894 refused"))
        #expect(folder.stderr.contains("Error: \(shelf.path)/c.jpg: empty file (0 bytes)"))
        let folderAgain = try isbnscan(["scan", "--db", db, shelf.path])
        #expect(folderAgain.status == 1)
        #expect(folderAgain.stdout == "")
        // Only the unreadable file is tried again (and its error shown again).
        let againLines = folderAgain.stderr.split(separator: "\n")
        #expect(againLines.count == 2)
        #expect(againLines.first == "Error: \(shelf.path)/c.jpg: empty file (0 bytes)")
        #expect(againLines.last?.hasPrefix("scanned 4 files: 1 with an ISBN, 1 with refused codes only, 1 without any barcode, 1 unreadable") == true)
        #expect(folderAgain.stderr.contains("; 3 files unchanged since an earlier run, counted from the catalogue"))
        // Named files: one line each, no warning, then the summary.
        let named = try isbnscan(["scan", "--db", db, a, b])
        #expect(named.stdout == "")
        let lines = named.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("\(b): unchanged since it was catalogued on "))
        #expect(!named.stderr.contains("Warning:"))
    }

    /// JSON Lines' `file` values.
    func files(_ jsonLines: String) -> Set<String> {
        Set(jsonLines.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String
        })
    }

    @Test func resumesAfterSIGKILLWithoutLosingOrRepeatingAFile() throws {
        // 240 images, every other one without a barcode (slow at --effort thorough), and a broken one.
        let count = 240
        var layout: [String: String] = ["broken.jpg": ""]
        for n in 0..<count {
            layout[String(format: "img%04d.png", n)] = n % 2 == 0 ? "isbn/png-gray8.png" : "negative/noise.png"
        }
        let shelf = try Shelf(layout)
        defer { shelf.remove() }
        let db = NSTemporaryDirectory() + "isbnscan-kill-\(UUID().uuidString).db"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }

        // First run: killed with SIGKILL once 40 results are printed.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = ["scan", "-r", "-j", "1", "--json", "--effort", "thorough", "--db", db, shelf.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = Data()
        while printed.filter({ $0 == UInt8(ascii: "\n") }).count < 40 {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        printed.append(pipe.fileHandleForReading.readDataToEndOfFile())
        // Only whole lines count as printed.
        let text = String(decoding: printed, as: UTF8.self)
        let firstFiles = files(String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]))
        #expect(firstFiles.count >= 40 && firstFiles.count < count)

        // Everything printed is in the catalogue.
        let catalog = try Catalog(path: db)
        var recorded = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: shelf.path) {
            if try catalog.storedFile(path: Array("\(shelf.path)/\(name)".utf8)) != nil { recorded.insert("\(shelf.path)/\(name)") }
        }
        #expect(firstFiles.isSubset(of: recorded))

        // Second run: scans only what was not recorded; the summary counts the whole folder.
        let second = try isbnscan(["scan", "-r", "-j", "2", "--json", "--db", db, shelf.path])
        let secondFiles = files(second.stdout)
        // broken.jpg, recorded as a failure, is tried again; nothing else is scanned twice.
        let broken = shelf.path + "/broken.jpg"
        #expect(secondFiles.intersection(recorded) == (recorded.contains(broken) ? [broken] : []))
        #expect(secondFiles.contains(broken))
        #expect(recorded.union(secondFiles).count == count + 1)
        #expect(second.stderr.contains("scanned \(count + 1) files: \(count / 2) with an ISBN, 0 with refused codes only, \(count / 2) without any barcode, 1 unreadable"))
        #expect(second.stderr.contains("; \(recorded.subtracting([broken]).count) files unchanged since an earlier run"))
        #expect(try catalog.books().map(\.count) == [count / 2])
    }

    @Test func dbErrorsAreReported() throws {
        let run = try isbnscan(["scan", "--db", "/nonexistent/folder/books.db", "\(testImages)/isbn/png-gray8.png"])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: /nonexistent/folder/books.db: cannot create the catalogue: No such file or directory\n")
        // A file that is no SQLite database: named, without SQLite's code or SQL.
        let shelf = try Shelf(["notdb.db": "text:" + String(repeating: "not a database\n", count: 100), "a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let notDB = shelf.path + "/notdb.db"
        for arguments in [["scan", "--db", notDB, shelf.path + "/a.png"], ["catalog", "list", "--db", notDB]] {
            let refused = try isbnscan(arguments)
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stdout == "", "\(arguments)")
            #expect(refused.stderr == "Error: \(notDB): not an isbnscan catalogue (not an SQLite database)\n", "\(arguments)")
        }
        let mergeIn = try isbnscan(["catalog", "merge", "--db", shelf.path + "/merged.db", notDB])
        #expect(mergeIn.status == 1)
        #expect(mergeIn.stderr == "Error: \(notDB): not an isbnscan catalogue (not an SQLite database)\n")
        // Merging the --db catalogue into itself, under its name or another: a usage error, at once.
        let merged = shelf.path + "/merged.db"
        _ = try isbnscan(["scan", "--db", merged, shelf.path + "/a.png"])
        for other in [merged, shelf.path + "/./merged.db"] {
            let itself = try isbnscan(["catalog", "merge", "--db", merged, other])
            #expect(itself.status == 2)
            #expect(itself.stderr.hasPrefix("Error: \(other) is the --db catalogue itself (the same file); a catalogue cannot be merged into itself\n"))
        }
        let usage = try isbnscan(["scan", "--rescan", "\(testImages)/isbn/png-gray8.png"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("Error: --rescan goes with --db\n"))
    }

    /// Two machines scan different shelves into their own catalogues; merged, exported, corrected.
    @Test func listExportMergeStatsAndRemove() throws {
        let one = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "rejected/jan.png"])
        let two = try Shelf(["c.jpg": "isbn/jpeg-gray.jpg", "d.png": "isbn/png-gray8.png"])
        defer { one.remove(); two.remove() }
        let dbOne = one.path + "/one.db", dbTwo = two.path + "/two.db"
        _ = try isbnscan(["scan", "--db", dbOne, one.path + "/a.png", one.path + "/b.png"])
        _ = try isbnscan(["scan", "--db", dbTwo, two.path + "/c.jpg", two.path + "/d.png"])

        let merge = try isbnscan(["catalog", "merge", "--db", dbOne, dbTwo])
        #expect(merge.status == 0)
        #expect(merge.stderr == "\(dbTwo): added 2 files, 2 sightings, 0 refused codes, 0 book lookups\n")
        let again = try isbnscan(["catalog", "merge", "--db", dbOne, dbTwo])
        #expect(again.stderr == "\(dbTwo): added 0 files, 0 sightings, 0 refused codes, 0 book lookups\n")

        let list = try isbnscan(["catalog", "list", "--db", dbOne])
        #expect(list.status == 0)
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(rows.map { String($0[0]) } == ["9780306406157", "9780321125217"])
        #expect(rows.map { String($0[1]) } == ["978-0-306-40615-7", "978-0-321-12521-7"])
        #expect(rows.map { String($0[2]) } == ["978-0", "978-0"])
        #expect(rows.map { String($0[3]) } == ["2", "1"])
        #expect(rows[0][6] == "\(one.path)/a.png")

        let isbnList = try isbnscan(["catalog", "export", "--db", dbOne, "--format", "isbn-list"])
        #expect(isbnList.stdout == "9780306406157\n9780321125217\n")
        let csv = try isbnscan(["catalog", "export", "--db", dbOne])
        let csvRows = csv.stdout.components(separatedBy: "\r\n")
        #expect(csvRows[0] == "isbn13,isbn10,hyphenated,group,agency,count,first_seen,last_seen,first_source,addon,price,title,authors,publisher,year,c_code")
        // ="…": spreadsheets keep the digits as text (the ISBN-10's leading zero).
        #expect(csvRows[1].hasPrefix(#""=""9780306406157""","=""0306406152""",978-0-306-40615-7,978-0,English language,2,"#))
        let jsonl = try isbnscan(["catalog", "export", "--db", dbOne, "--format", "jsonl"])
        let first = try JSONSerialization.jsonObject(with: Data(jsonl.stdout.split(separator: "\n")[0].utf8)) as! [String: Any]
        #expect(first["isbn13"] as? String == "9780306406157" && first["count"] as? Int == 2)
        #expect(first["hyphenated"] as? String == "978-0-306-40615-7")
        #expect((first["group"] as? [String: Any])?["agency"] as? String == "English language")

        let stats = try isbnscan(["catalog", "stats", "--db", dbOne])
        #expect(stats.stdout.hasPrefix("""
            books: 2 (3 sightings, 0 from a camera)
            files: 4 (3 with an ISBN, 1 with refused codes only, 0 without any barcode, 0 unreadable)
            refused codes: 1 (prefix 1)

            """))

        let remove = try isbnscan(["catalog", "remove", "--db", dbOne, "978-0-306-40615-7", "9780131103627"])
        #expect(remove.status == 0)
        #expect(remove.stdout == "9780306406157: removed 2 sightings\n")
        #expect(remove.stderr == "Warning: 9780131103627: not in the catalogue\n")
        #expect(try isbnscan(["catalog", "export", "--db", dbOne, "--format", "isbn-list"]).stdout == "9780321125217\n")

        // Arguments that are no ISBN: a usage error naming the reason, and nothing removed.
        let cases: [([String], String)] = [
            (["9780321125217", "abc-def"], "Error: abc-def: not a valid ISBN (non-digit: 'abcdef' has characters other than the digits 0-9); nothing removed"),
            (["978-0-321-12521-8"], "Error: 978-0-321-12521-8: not a valid ISBN (check-digit: check digit is 8, expected 7); nothing removed"),
            (["4901234567894"], "Error: 4901234567894: not a valid ISBN (prefix: prefix 490 is not 978: Japanese JAN product code); nothing removed"),
        ]
        for (arguments, message) in cases {
            let refused = try isbnscan(["catalog", "remove", "--db", dbOne] + arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stdout == "", "\(arguments)")
            #expect(refused.stderr.hasPrefix(message + "\n"), "\(arguments)")
        }
        #expect(try isbnscan(["catalog", "export", "--db", dbOne, "--format", "isbn-list"]).stdout == "9780321125217\n")
        // An ISBN-10 names the same book.
        let byISBN10 = try isbnscan(["catalog", "remove", "--db", dbOne, "0-321-12521-5"])
        #expect(byISBN10.status == 0)
        #expect(byISBN10.stdout == "9780321125217: removed 1 sighting\n")
    }

    @Test func catalogUsageErrors() throws {
        let cases: [([String], String)] = [
            (["catalog"], "Error: no action given (list, export, stats, lookup, merge, remove)"),
            (["catalog", "show", "--db", "x.db"], "Error: unknown action 'show' (list, export, stats, lookup, merge, remove)"),
            (["catalog", "list"], "Error: --db <file> is required"),
            (["catalog", "export", "--db", "x.db", "--format", "xls"], "Error: --format 'xls' is not one of csv, jsonl, isbn-list, goodreads, libib, bibtex, ris, csl-json"),
            (["catalog", "merge", "--db", "x.db"], "Error: merge needs a catalogue file"),
            (["catalog", "list", "--db", "x.db", "extra"], "Error: unexpected argument 'extra'"),
            (["catalog", "stats", "--db", "x.db", "--format", "csv"], "Error: --format goes with export"),
            (["catalog", "export", "--json", "--db", "x.db"], "Error: --json goes with list, stats and lookup (export: --format jsonl)"),
            (["catalog", "remove", "--json", "--db", "x.db", "9780306406157"], "Error: --json goes with list, stats and lookup"),
        ]
        for (arguments, message) in cases {
            let run = try isbnscan(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix(message + "\n"), "\(arguments)")
        }
        let missing = try isbnscan(["catalog", "list", "--db", "/nonexistent/books.db"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: /nonexistent/books.db: no such catalogue\n")
        // A catalogue to merge in that does not exist is an error, and is not created.
        let target = NSTemporaryDirectory() + "merge-target-\(getpid()).db"
        defer { try? FileManager.default.removeItem(atPath: target) }
        let absent = NSTemporaryDirectory() + "absent-\(getpid()).db"
        let merge = try isbnscan(["catalog", "merge", "--db", target, absent])
        #expect(merge.status == 1)
        #expect(merge.stderr == "Error: \(absent): no such catalogue\n")
        #expect(!FileManager.default.fileExists(atPath: absent))
    }
}
