// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// A temporary folder of copies of TestImages files, for folder scans.
struct Shelf {
    let path: String
    init(_ files: [String: String]) throws {
        path = NSTemporaryDirectory() + "isbnscan-shelf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
        for (name, source) in files {
            let destination = "\(path)/\(name)"
            try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            if source.isEmpty {
                _ = FileManager.default.createFile(atPath: destination, contents: Data())
            } else if source.hasPrefix("text:") {
                try Data(source.dropFirst(5).utf8).write(to: URL(fileURLWithPath: destination))
            } else {
                try FileManager.default.copyItem(atPath: "\(testImages)/\(source)", toPath: destination)
            }
        }
    }
    func remove() {
        _ = try? FileManager.default.subpathsOfDirectory(atPath: path).map { chmod("\(path)/\($0)", 0o755) }
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite struct BatchCommandTests {
    @Test func aFolderIsScannedInNameOrderWithASummary() throws {
        let shelf = try Shelf(["b.png": "isbn/png-gray8.png", "a.jpg": "isbn/jpeg-cmyk.jpg", "notes.txt": "text:hello",
                               "sub/c.png": "isbn/addon-ean5.png", ".hidden.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let p = shelf.path
        let flat = try isbnscan(["scan", p])
        #expect(flat.status == 0)
        #expect(flat.stdout == "\(p)/a.jpg: 9780735619678\n\(p)/b.png: 9780306406157\n")
        #expect(flat.stderr.hasPrefix("scanned 2 files: 2 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable (0 codes refused; "))
        #expect(flat.stderr.hasSuffix(" files/s); left out 1 non-image file, 1 hidden (use --hidden), 1 subfolder (use -r)\n"))

        let deep = try isbnscan(["scan", "-r", "--hidden", p, "\(testImages)/isbn/pgm-p5.pgm"])
        #expect(deep.stdout == """
            \(p)/.hidden.png: 9780306406157
            \(p)/a.jpg: 9780735619678
            \(p)/b.png: 9780306406157
            \(p)/sub/c.png: 9780553293357
            \(testImages)/isbn/pgm-p5.pgm: 9780321573513

            """)
    }

    @Test func outputIsTheSameWhateverTheJobs() throws {
        let one = try isbnscan(["scan", "-r", "--json", "--all", "-j", "1", testImages])
        let three = try isbnscan(["scan", "-r", "--json", "--all", "-j3", testImages])
        #expect(one.status == 1)  // TestImages/corrupt
        #expect(three.status == 1)
        #expect(one.stdout == three.stdout)
        #expect(one.stdout.split(separator: "\n").count == 122)  // one JSON line per image file in TestImages
    }

    @Test func csvFollowsRFC4180() throws {
        let shelf = try Shelf(["a,\"quoted\".png": "isbn/png-gray8.png", "b.png": "rejected/jan.png", "c.jpg": "",
                               "d.png": "negative/blank.png"])
        defer { shelf.remove() }
        let p = shelf.path
        let run = try isbnscan(["scan", "--csv", p])
        #expect(run.status == 1)
        // The four kinds of file add up to the files scanned.
        #expect(run.stderr.contains("scanned 4 files: 1 with an ISBN, 1 with refused codes only, 1 without any barcode, 1 unreadable (1 code refused; "))
        #expect(run.stdout == "file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,price,page,warning,c_code\r\n"
                + "\"\(p)/a,\"\"quoted\"\".png\",9780306406157,0306406152,EAN-13,9780306406157,,accepted,,978-0-306-40615-7,978-0,English language,,,,\r\n"
                + "\(p)/b.png,,,EAN-13,4901234567894,,rejected,prefix: prefix 490 is not 978: Japanese JAN product code,,,,,,,\r\n"
                + "\(p)/c.jpg,,,,,,error,empty file (0 bytes),,,,,,,\r\n"
                + "\(p)/d.png,,,,,,no-barcode,,,,,,,,\r\n")
    }

    @Test func outputFileIsWrittenWhole() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.jpg": "isbn/jpeg-gray.jpg"])
        defer { shelf.remove() }
        let target = "\(shelf.path)/out/books.csv"
        try FileManager.default.createDirectory(atPath: "\(shelf.path)/out", withIntermediateDirectories: true)
        let toStdout = try isbnscan(["scan", "--csv", shelf.path])
        let toFile = try isbnscan(["scan", "--csv", "-o", target, shelf.path])
        #expect(toFile.status == 0)
        #expect(toFile.stdout == "")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == toStdout.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(shelf.path)/out") == ["books.csv"])  // no temporary left

        let nowhere = try isbnscan(["scan", "-o", "\(shelf.path)/missing/books.csv", shelf.path])
        #expect(nowhere.status == 3)
        #expect(nowhere.stdout == "")
        #expect(nowhere.stderr == "Error: \(shelf.path)/missing/books.csv: cannot write the output file: No such file or directory\n")

        let onInput = try isbnscan(["scan", "-o", "\(shelf.path)/a.png", shelf.path])  // a typo must not destroy a photo
        #expect(onInput.status == 2)
        #expect(onInput.stderr.hasPrefix("Error: --output \(shelf.path)/a.png is the input \(shelf.path)/a.png; refusing to overwrite it\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(shelf.path)/a.png")) == Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/png-gray8.png")))

        let device = try isbnscan(["scan", "-q", "-o", "/dev/null", shelf.path])  // written to, never replaced
        #expect(device.status == 0)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func uniqueCountsEachISBNOnce() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "isbn/png-gray8.png", "c.pgm": "isbn/pgm-p5.pgm",
                               "d.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let p = shelf.path
        let text = try isbnscan(["scan", "--unique", p])
        #expect(text.stdout == "9780306406157 3 \(p)/a.png\n9780321573513 1 \(p)/c.pgm\n")
        let json = try isbnscan(["scan", "--unique", "--json", p])
        let first = try JSONSerialization.jsonObject(with: Data(json.stdout.split(separator: "\n")[0].utf8)) as! [String: Any]
        #expect(first["isbn13"] as? String == "9780306406157")
        #expect(first["isbn10"] as? String == "0306406152")
        #expect(first["count"] as? Int == 3)
        #expect(first["file"] as? String == "\(p)/a.png")
        let csv = try isbnscan(["scan", "--unique", "--csv", p])
        #expect(csv.stdout == "isbn13,isbn10,count,file\r\n9780306406157,0306406152,3,\(p)/a.png\r\n9780321573513,032157351X,1,\(p)/c.pgm\r\n")
    }

    @Test func aFolderOfSubfoldersEndsWithAHintToUseRecursive() throws {
        let phone = try Shelf(["DCIM/100APPLE/IMG_0001.png": "isbn/png-gray8.png", "DCIM/101APPLE/IMG_0002.png": "negative/noise.png",
                               "DCIM/.thumbnails/x.png": "isbn/png-gray8.png"])
        defer { phone.remove() }
        let flat = try isbnscan(["scan", "\(phone.path)/DCIM"])
        #expect(flat.status == 4)
        #expect(flat.stdout == "")
        let lines = flat.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("scanned 0 files: ") == true)
        #expect(lines.last == "Hint: no ISBN found, and 2 subfolders were not scanned: add -r (--recursive) to scan subfolders too")
        #expect(try isbnscan(["scan", "-q", "\(phone.path)/DCIM"]).stderr == "")
        let deep = try isbnscan(["scan", "-r", "\(phone.path)/DCIM"])
        #expect(deep.status == 0)
        #expect(!deep.stderr.contains("Hint:"))
        // Something found: the summary's "(use -r)" is enough.
        let mixed = try Shelf(["a.png": "isbn/png-gray8.png", "sub/b.png": "isbn/png-gray8.png"])
        defer { mixed.remove() }
        #expect(!(try isbnscan(["scan", mixed.path]).stderr.contains("Hint:")))
    }

    @Test func emptyFolderAndFolderWithoutImagesFindNothing() throws {
        let empty = try Shelf([:])
        defer { empty.remove() }
        let run = try isbnscan(["scan", empty.path])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("scanned 0 files: 0 with an ISBN"))

        let papers = try Shelf(["a.txt": "text:x", "b.json": "text:{}"])
        defer { papers.remove() }
        let none = try isbnscan(["scan", papers.path])
        #expect(none.status == 4)
        #expect(none.stderr.hasPrefix("scanned 0 files: "))
        #expect(none.stderr.hasSuffix("; left out 2 non-image files\n"))

        // A document is not skipped quietly: it may be the scan the user meant.
        let pdf = try Shelf(["scan.pdf": "text:%PDF-1.4 nothing"])
        defer { pdf.remove() }
        let refused = try isbnscan(["scan", pdf.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: \(pdf.path)/scan.pdf: unsupported format: PDF (isbnscan reads PNG, JPEG, TIFF, WebP, GIF, HEIF/HEIC, BMP, PGM and PPM)\n"))
    }

    @Test func unreadableFilesAndFoldersAreListedAndTheRestScanned() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "locked.png": "isbn/png-gray8.png",
                               "private/b.png": "isbn/png-gray8.png", "z.jpg": "isbn/jpeg-gray.jpg"])
        defer { shelf.remove() }
        let p = shelf.path
        chmod("\(p)/locked.png", 0o000)
        chmod("\(p)/private", 0o000)
        // As root everything is readable, so drop to 'nobody' for this run.
        let run = try isbnscan(["scan", "-r", "--json", p], as: getuid() == 0 ? "65534" : nil)
        #expect(run.status == 1)
        let records = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(records.map { $0["file"] as? String } == ["\(p)/a.png", "\(p)/locked.png", "\(p)/private", "\(p)/z.jpg"])
        #expect(records.map { $0["error"] as? String } == [nil, "permission denied", "permission denied", nil])
        #expect(run.stderr.contains("Error: \(p)/locked.png: permission denied\nError: \(p)/private: permission denied\n"))
        #expect(run.stderr.contains("scanned 4 files: 2 with an ISBN, 0 with refused codes only, 0 without any barcode, 2 unreadable (0 codes refused; "))
    }

    @Test func brokenFilesInAFolderAreErrorsNotStops() throws {
        let shelf = try Shelf(["1-empty.jpg": "", "2-truncated.png": "corrupt/truncated-header.png", "3-corrupt.jpg": "corrupt/corrupt.jpg",
                               "4-fake-extension.jpg": "isbn/fake-extension.jpg", "5-bomb.png": "corrupt/bomb.png",
                               "6-good.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let p = shelf.path
        let run = try isbnscan(["scan", "-j", "2", p])
        #expect(run.status == 1)
        #expect(run.stdout == "\(p)/4-fake-extension.jpg: 9780262035613\n\(p)/6-good.png: 9780306406157\n")
        #expect(run.stderr.hasPrefix("""
            Error: \(p)/1-empty.jpg: empty file (0 bytes)
            Error: \(p)/2-truncated.png: truncated: file ends before the image does
            Error: \(p)/3-corrupt.jpg: corrupt JPEG: Unsupported marker type 0x8e
            Error: \(p)/5-bomb.png: image is 50000x50000 = 2500000000 pixels, over the limit of 120000000 (see --max-pixels)

            """))
    }

    @Test func decompressionBombIsRefusedBeforeAllocation() throws {
        let shelf = try Shelf(["bomb.png": "corrupt/bomb.png"])
        defer { shelf.remove() }
        let run = try isbnscan(["scan", "--max-pixels", "4000000", shelf.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: \(shelf.path)/bomb.png: image is 50000x50000 = 2500000000 pixels, over the limit of 4000000 (see --max-pixels)\n"))
        // 2.5 gigapixels were never allocated: every child of this test process stayed small.
        #expect(peakChildMegabytes() < 200)
    }

    @Test func symlinkLoopsEndWithAWarning() throws {
        let shelf = try Shelf(["books/a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        #expect(symlink("..", "\(shelf.path)/books/loop") == 0)
        let run = try isbnscan(["scan", "-r", shelf.path])
        #expect(run.status == 0)
        #expect(run.stdout == "\(shelf.path)/books/a.png: 9780306406157\n")
        #expect(run.stderr.hasPrefix("Warning: \(shelf.path)/books/loop: folder already walked (named twice, or reached again through a symbolic link), not entered again\n"))
    }

    /// A file named twice (the same device and inode: the same path, another path to it, a
    /// symbolic link, or a file named and also found in a folder named) is scanned once, at
    /// its first place, with a warning as for a folder named twice; files a folder holds are
    /// all scanned, hard links too.
    @Test func aFileNamedTwiceIsScannedOnceWithAWarning() throws {
        let shelf = try Shelf(["books/a.png": "isbn/png-gray8.png", "b.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        #expect(symlink("\(shelf.path)/books/a.png", "\(shelf.path)/link.png") == 0)
        #expect(link("\(shelf.path)/books/a.png", "\(shelf.path)/books/c.png") == 0)
        let a = "\(shelf.path)/books/a.png", b = "\(shelf.path)/b.png"
        let run = try isbnscan(["scan", a, b, a, "\(shelf.path)/books/../books/a.png", "\(shelf.path)/link.png"])
        #expect(run.status == 0)
        #expect(run.stdout == "\(a): 9780306406157\n\(b): 9780306406157\n")
        func warning(_ path: String, _ first: String) -> String {
            "Warning: \(path): file already taken as \(first) (named twice, or the same file under another name), not scanned again\n"
        }
        #expect(run.stderr.hasPrefix(warning(a, a) + warning("\(shelf.path)/books/../books/a.png", a)
                                     + warning("\(shelf.path)/link.png", a) + "scanned 2 files: 2 with an ISBN, "))
        // Named, then found in a folder named: the folder's names of it (a.png, and c.png, a hard
        // link to it) are the ones left out.
        let folder = try isbnscan(["scan", a, "\(shelf.path)/books"])
        #expect(folder.stdout == "\(a): 9780306406157\n")
        #expect(folder.stderr.hasPrefix(warning(a, a) + warning("\(shelf.path)/books/c.png", a) + "scanned 1 file: "))
        // Found in a folder walked, then named: the name is left out.
        let named = try isbnscan(["scan", "\(shelf.path)/books", "\(shelf.path)/link.png"])
        #expect(named.stdout == "\(a): 9780306406157\n\(shelf.path)/books/c.png: 9780306406157\n")
        #expect(named.stderr.hasPrefix(warning("\(shelf.path)/link.png", a) + "scanned 2 files: "))
        let walked = try isbnscan(["scan", "\(shelf.path)/books"])
        #expect(walked.stdout == "\(a): 9780306406157\n\(shelf.path)/books/c.png: 9780306406157\n")
        #expect(!walked.stderr.contains("Warning"))
        // -q keeps the warnings off stderr; the file is still scanned once.
        let quiet = try isbnscan(["scan", "-q", a, a])
        #expect(quiet.stdout == "\(a): 9780306406157\n")
        #expect(quiet.stderr == "")
    }

    @Test func nonUTF8NamesAreEscapedInTextAndValidInJSON() throws {
        let shelf = try Shelf(["x.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let latin1 = Array("\(shelf.path)/caf".utf8) + [0xE9] + Array(".png".utf8) + [0]
        #expect(latin1.withUnsafeBufferPointer { rename("\(shelf.path)/x.png", UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) } == 0)
        let text = try isbnscan(["scan", "--all", shelf.path])
        #expect(text.stdout == "\(shelf.path)/caf\\xE9.png: EAN-13 9780306406157 accepted ISBN-10 0306406152 978-0-306-40615-7 (978-0 English language)\n")
        let json = try isbnscan(["scan", "--json", shelf.path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["file"] as? String == "\(shelf.path)/caf\\xE9.png")
        // Named on the command line (argv bytes, not UTF-8), the file still opens.
        let direct = try isbnscan(["-c", "exec \"$0\" scan \"$(printf '\(shelf.path)/caf\\351.png')\"", isbnscanBinary],
                                  executable: "/bin/sh")
        #expect(direct.status == 0)
        #expect(direct.stdout == "9780306406157\n")
    }
}

/// Soak runs, slow by nature: `make test-long` runs them (Documentation/testing.md).
@Suite struct BatchCommandLongTests {
    @Test func tenThousandFilesKeepMemoryFlat() throws {
        let folder = NSTemporaryDirectory() + "isbnscan-10k-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var pixels = Data("P5\n48 16\n255\n".utf8)
        pixels.append(Data((0..<(48 * 16)).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        for index in 0..<10_000 {
            _ = FileManager.default.createFile(atPath: String(format: "%@/%05d.pgm", folder, index), contents: pixels)
        }
        let run = try isbnscan(["scan", "--effort", "fast", "-j", "2", "--json", "-o", "\(folder).jsonl", folder])
        defer { try? FileManager.default.removeItem(atPath: "\(folder).jsonl") }
        #expect(run.status == 4)
        #expect(run.stderr.contains("scanned 10000 files: 0 with an ISBN, 0 with refused codes only, 10000 without any barcode"))
        let lines = try String(contentsOfFile: "\(folder).jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 10_000)
        #expect(lines.last?.hasPrefix("{\"file\": \"\(folder)/09999.pgm\"") == true)
        #expect(peakChildMegabytes() < 200)
    }
}

/// The largest resident set of any child process this test process has waited for, in MB
/// (`getrusage(RUSAGE_CHILDREN)`): an upper bound for each `isbnscan` run.
/// Whether this process ignores `signal` (the SigIgn mask of /proc/self/status); children
/// started with `Process` inherit that.
func isIgnoredHere(_ signal: Int32) -> Bool {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }),
          let mask = UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
}

func peakChildMegabytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return usage.ru_maxrss / 1024
}

@Suite struct InterruptionTests {
    /// Starts `isbnscan` on a folder of 300 copies of a small picture of noise, sends `signal`
    /// once `ready` says so (given what is on standard output so far), and returns the run.
    /// With `notes`, each picture has a text file beside it (`000.txt`), which the scan leaves out.
    func interrupted(by signal: Int32, extra: [String], notes: Bool = false,
                     ready: (_ stdout: String) -> Bool) throws -> (Run, folder: String) {
        let folder = NSTemporaryDirectory() + "isbnscan-int-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<300 {
            try FileManager.default.copyItem(atPath: "\(testImages)/negative/noise.png", toPath: String(format: "%@/%03d.png", folder, index))
            if notes { try "no barcode\n".write(toFile: String(format: "%@/%03d.txt", folder, index), atomically: false, encoding: .utf8) }
        }
        let out = folder + ".out", err = folder + ".err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = ["scan", "-j", "1", "--json"] + extra + [folder]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !ready((try? String(contentsOfFile: out, encoding: .utf8)) ?? ""), Date() < deadline, process.isRunning {
            usleep(20_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (Run(status: process.terminationStatus, stdout: try String(contentsOfFile: out, encoding: .utf8),
                    stderr: try String(contentsOfFile: err, encoding: .utf8)), folder)
    }

    /// The files named by JSON Lines `text`, checking each line is a whole JSON object.
    func files(_ text: String) throws -> [String] {
        try text.split(separator: "\n").map {
            try #require((try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String)
        }
    }

    @Test func ctrlCFlushesWhatIsDoneAndExits130() throws {
        let (run, folder) = try interrupted(by: SIGINT, extra: []) { $0.split(separator: "\n").count >= 2 }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(run.status == 130)
        let done = try files(run.stdout)
        #expect(done.count >= 2 && done.count < 300)
        #expect(done == (0..<done.count).map { String(format: "%@/%03d.png", folder, $0) })  // a prefix, none lost
        #expect(run.stderr.contains("Interrupted by SIGINT: \(done.count) files scanned, \(300 - done.count) not reached\n"))
        #expect(run.stderr.contains("scanned \(done.count) files: 0 with an ISBN, 0 with refused codes only, \(done.count) without any barcode"))
    }

    /// Text files beside the pictures: the message counts as the summary does (scanned files),
    /// and what is not reached is the pictures not scanned: the text files, met or not, are no
    /// file to do (300 pictures and 300 notes, so not 600 less those done).
    @Test func interruptedCountsMatchTheSummaryWithNonImagesAround() throws {
        let (run, folder) = try interrupted(by: SIGINT, extra: [], notes: true) { $0.split(separator: "\n").count >= 2 }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(run.status == 130)
        let done = try files(run.stdout).count
        #expect(done >= 2 && done < 300)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let message = try #require(lines.first { $0.hasPrefix("Interrupted by SIGINT: ") })
        let summary = try #require(lines.first { $0.hasPrefix("scanned ") })
        #expect(summary.hasPrefix("scanned \(done) files: "))
        #expect(message == "Interrupted by SIGINT: \(done) files scanned, \(300 - done) not reached")
        // 000.png, 000.txt, 001.png, …: the notes met so far are left out in the summary.
        let leftOut = summary.range(of: "left out ").map { Int(summary[$0.upperBound...].prefix { $0.isNumber }) ?? 0 } ?? 0
        #expect(leftOut >= 1)
    }

    @Test func sigtermWithOutputFileWritesTheFinishedPart() throws {
        let target = NSTemporaryDirectory() + "isbnscan-int-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: target) }
        // Ready once two results are in the temporary file that becomes `target` (written as
        // each file is done), not after a time: how long a file takes is no part of the test.
        let temporaryPrefix = ".\((target as NSString).lastPathComponent).isbnscan-"
        let (run, folder) = try interrupted(by: SIGTERM, extra: ["-q", "-o", target]) { _ in
            let directory = NSTemporaryDirectory()
            guard let name = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first(where: { $0.hasPrefix(temporaryPrefix) }),
                  let written = try? String(contentsOfFile: (directory as NSString).appendingPathComponent(name), encoding: .utf8) else { return false }
            return written.split(separator: "\n").count >= 2
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(run.status == 130)
        #expect(run.stdout == "")
        let done = try files(try String(contentsOfFile: target, encoding: .utf8))
        #expect(done == (0..<done.count).map { String(format: "%@/%03d.png", folder, $0) })
        #expect(run.stderr == "Interrupted by SIGTERM: \(done.count) files scanned, \(300 - done.count) not reached, written to \(target)\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix(".\((target as NSString).lastPathComponent).isbnscan-") }
        #expect(leftovers.isEmpty)
    }

    /// A folder of `count` 3000x2000 PGMs of random bars (1–4 pixels wide, full height) under
    /// grain: barcode-like all over, so every recovery pass runs on the whole picture and none
    /// reads anything — several seconds each at `--effort thorough` in a debug build, so a file
    /// is still in flight long after a first signal. (Plain noise ends after the first look.)
    func slowFolder(count: Int) throws -> String {
        let folder = NSTemporaryDirectory() + "isbnscan-slow-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        for index in 0..<count {
            let grain = try #require(try random.read(upToCount: 3000 * 2000))
            let widths = try #require(try random.read(upToCount: 3000))
            var bars = [UInt8](repeating: 0, count: 3000)
            var x = 0, dark = true, k = 0
            while x < 3000 {
                let width = 1 + Int(widths[k % widths.count]) % 4
                for column in x..<min(3000, x + width) { bars[column] = dark ? 50 : 205 }
                x += width; dark.toggle(); k += 1
            }
            var pixels = [UInt8](repeating: 0, count: 3000 * 2000)
            for y in 0..<2000 {
                for column in 0..<3000 {
                    pixels[y * 3000 + column] = UInt8(Int(bars[column]) + Int(grain[y * 3000 + column] % 41) - 20)
                }
            }
            try (Data("P5\n3000 2000\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: "\(folder)/\(index).pgm"))
        }
        return folder
    }

    /// Starts `isbnscan scan -o` into an empty folder, waits until its temporary file exists
    /// and a file is being scanned, sends `signals` a moment apart, and returns how it ended
    /// and what is left in the output folder.
    func killed(by signals: [Int32]) throws -> (reason: Process.TerminationReason, status: Int32, left: [String]) {
        let input = try slowFolder(count: 3)
        let output = NSTemporaryDirectory() + "isbnscan-out-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: isbnscanBinary)
        process.arguments = ["scan", "-q", "-j", "1", "--effort", "thorough", "-o", "\(output)/books.csv", input]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while (try FileManager.default.contentsOfDirectory(atPath: output)).isEmpty, Date() < deadline, process.isRunning {
            usleep(10_000)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).first?.hasPrefix(".books.csv.isbnscan-") == true)
        usleep(500_000)
        for signal in signals {
            kill(process.processIdentifier, signal)
            usleep(300_000)
        }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, try FileManager.default.contentsOfDirectory(atPath: output))
    }

    @Test func aSecondCtrlCRemovesTheTemporaryOutputFile() throws {
        let run = try killed(by: [SIGINT, SIGINT])
        #expect(run.reason == .uncaughtSignal)
        #expect(run.status == SIGINT)
        #expect(run.left == [])
    }

    /// SIGHUP: the terminal was closed. (SIGQUIT is handled the same way, but shells and
    /// test runners often start programs with it ignored.) Under `nohup` isbnscan inherits
    /// SIGHUP ignored and rightly leaves it so: nothing to test then.
    @Test(.enabled(if: !isIgnoredHere(SIGHUP), "SIGHUP is ignored in this test run (nohup)"))
    func aHangupRemovesTheTemporaryOutputFile() throws {
        let run = try killed(by: [SIGHUP])
        #expect(run.reason == .uncaughtSignal)
        #expect(run.status == SIGHUP)
        #expect(run.left == [])
    }

    /// Other signals that end a process by default remove it too (`timeout -s ALRM`, `kill -USR1`).
    @Test(arguments: [SIGUSR1, SIGALRM])
    func otherFatalSignalsRemoveTheTemporaryOutputFile(signal: Int32) throws {
        let run = try killed(by: [signal])
        #expect(run.reason == .uncaughtSignal)
        #expect(run.status == signal)
        #expect(run.left == [])
    }

    @Test func progressBarCountsOnlyTheFilesThatWillBeScanned() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "negative/noise.png", "c": "isbn/png-gray8.png",
                               "notes.txt": "text:hello", "README": "text:photos of the shelf", "empty.json": ""])
        defer { shelf.remove() }
        let run = try isbnscan(["-qec", "'\(isbnscanBinary)' scan '\(shelf.path)'", "/dev/null"], executable: "/usr/bin/script")
        let totals = Set(run.stdout.matches(of: /\] (\d+)\/(\d+) files/).map { String($0.2) })
        #expect(totals == ["3"])
        #expect(run.stdout.contains("scanned 3 files: "))
        #expect(run.stdout.contains("left out 3 non-image files"))
    }

    @Test func progressBarShowsOnATerminalOnly() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "b.png": "negative/noise.png", "c.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        // script(1) gives isbnscan a pseudo-terminal as stdout and stderr.
        let command = "'\(isbnscanBinary)' scan '\(shelf.path)'"
        let onTerminal = try isbnscan(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
        #expect(onTerminal.stdout.contains("\r\u{1B}[K[" ))
        #expect(onTerminal.stdout.contains("/3 files"))
        #expect(onTerminal.stdout.contains(" files/s  "))
        #expect(onTerminal.stdout.contains("found "))
        // Each result starts a line of its own: the bar is taken off before it. (The terminal
        // ends lines with \r\n, one Character in Swift: split the UTF-8 bytes.)
        let results = onTerminal.stdout.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.contains("9780306406157") }
        #expect(results.count == 2)
        for line in results {
            let afterBar = line.components(separatedBy: "\r\u{1B}[K").last ?? ""
            #expect(afterBar.hasPrefix(shelf.path), "\(line.debugDescription)")
        }
        let quiet = try isbnscan(["-qec", command + " -q", "/dev/null"], executable: "/usr/bin/script")
        #expect(!quiet.stdout.contains("files/s"))
        #expect(quiet.stdout.contains("9780306406157"))
        let piped = try isbnscan(["scan", shelf.path])
        #expect(!piped.stderr.contains("\u{1B}[K"))
    }
}

@Suite struct HostileInputTests {
    @Test func thinImagesAreScannedWithoutBlowingUp() throws {
        let shelf = try Shelf([:])
        defer { shelf.remove() }
        // 65535x1 is allowed (no rotation canvas may grow from it); 100000x1 is over the side limit.
        try (Data("P5 65535 1 255\n".utf8) + Data(repeating: 255, count: 65535)).write(to: URL(fileURLWithPath: "\(shelf.path)/a.pgm"))
        try (Data("P5 1 65535 255\n".utf8) + Data(repeating: 255, count: 65535)).write(to: URL(fileURLWithPath: "\(shelf.path)/b.pgm"))
        try (Data("P5 100000 1 255\n".utf8) + Data(repeating: 255, count: 100000)).write(to: URL(fileURLWithPath: "\(shelf.path)/c.pgm"))
        let run = try isbnscan(["scan", "--effort", "thorough", "-q", shelf.path])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(shelf.path)/c.pgm: image is 100000x1, a side over the 65535-pixel maximum\n")
        #expect(peakChildMegabytes() < 200)
    }

    @Test func aFailedWriteToStandardOutputIsAnError() throws {
        let run = try isbnscan(["-c", "exec \"$0\" scan '\(testImages)/isbn/png-gray8.png' > /dev/full", isbnscanBinary], executable: "/bin/sh")
        #expect(run.status == 3)
        #expect(run.stderr == "Error: standard output: write failed: No space left on device\n")
    }

    @Test func outputThroughASymbolicLinkReplacesItsTarget() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png", "old.txt": "text:old"])
        defer { shelf.remove() }
        #expect(symlink("old.txt", "\(shelf.path)/link.txt") == 0)
        let long = String(repeating: "n", count: 250) + ".txt"  // no room for a suffix in the temporary name
        for target in ["\(shelf.path)/link.txt", "\(shelf.path)/\(long)"] {
            let run = try isbnscan(["scan", "-q", "-o", target, "\(shelf.path)/a.png"])
            #expect(run.status == 0)
        }
        var info = stat()
        #expect(lstat("\(shelf.path)/link.txt", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try String(contentsOfFile: "\(shelf.path)/old.txt", encoding: .utf8) == "9780306406157\n")
        #expect(try String(contentsOfFile: "\(shelf.path)/\(long)", encoding: .utf8) == "9780306406157\n")
    }

    @Test func aSymbolicLinkToItselfIsAnError() throws {
        let shelf = try Shelf(["a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        #expect(symlink("self.jpg", "\(shelf.path)/self.jpg") == 0)
        let run = try isbnscan(["scan", shelf.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: \(shelf.path)/self.jpg: read failed (errno 40): symbolic link loop (the link leads back to itself)\n"))
    }
}
