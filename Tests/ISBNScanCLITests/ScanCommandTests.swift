// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

@Suite struct ScanCommandTests {
    let images = testImages

    @Test func singleFilePrintsTheISBNAlone() throws {
        let run = try isbnscan(["scan", "\(images)/isbn/photo-like.jpg"])
        #expect(run.status == 0)
        #expect(run.stdout == "9780140449136\n")
        #expect(run.stderr == "")
    }

    @Test func severalFilesArePrefixedAndBadOnesDoNotStopTheRest() throws {
        let run = try isbnscan(["scan", "\(images)/isbn/png-gray8.png", "\(images)/corrupt/truncated-header.png",
                                "\(images)/isbn/jpeg-cmyk.jpg", "\(images)/nope.png"])
        #expect(run.status == 1)  // an unreadable input wins over "found"
        #expect(run.stdout == "\(images)/isbn/png-gray8.png: 9780306406157\n\(images)/isbn/jpeg-cmyk.jpg: 9780735619678\n")
        #expect(run.stderr.contains("Error: \(images)/corrupt/truncated-header.png: truncated: file ends before the image does\n"))
        #expect(run.stderr.contains("Error: \(images)/nope.png: no such file\n"))
        #expect(run.stderr.contains("\nscanned 4 files: 2 with an ISBN, 0 with refused codes only, 0 without any barcode, 2 unreadable (0 codes refused; "))
    }

    /// A photo whose ISBN is accepted, where one pass misread the same barcode as a product code:
    /// the misread is listed (--all, JSON) but no warning, and no refused code in the summary.
    @Test func aMisreadOfTheAcceptedISBNIsNoWarning() throws {
        let photo = "\(images)/trust/misread-rival.png"
        let run = try isbnscan(["scan", photo])
        #expect(run.status == 0)
        #expect(run.stdout == "9782717812831\n")
        #expect(run.stderr == "")
        let all = try isbnscan(["scan", "--all", photo])
        #expect(all.stdout == "EAN-13 9782717812831 accepted ISBN-10 2717812830 978-2-7178-1283-1 (978-2 French language)\n"
                + "EAN-13 9188171878831 rejected misread: probable misread of 9782717812831: the two differ only in "
                + "digits that bar widths tell apart (1 and 7, 2 and 8), and the fit of the printed symbol, which "
                + "measures the widths, reads 9782717812831\n")
        let json = try isbnscan(["scan", "--json", photo])
        #expect(json.stdout.contains("\"reason\": \"misread\", \"detail\": \"probable misread of 9782717812831: the two "
                                     + "differ only in digits that bar widths tell apart (1 and 7, 2 and 8), and the fit of the "
                                     + "printed symbol, which measures the widths, reads 9782717812831\", "
                                     + "\"misread_of\": \"9782717812831\"}]"))
        #expect(json.stderr == "")
        let two = try isbnscan(["scan", photo, "\(images)/rejected/jan.png"])
        #expect(two.stderr.contains("\nscanned 2 files: 1 with an ISBN, 1 with refused codes only, 0 without any barcode, 0 unreadable (1 code refused; "))
        #expect(!two.stderr.contains("misread"))
    }

    @Test func nothingFoundIsExitFour() throws {
        let run = try isbnscan(["scan", "\(images)/negative/noise.png", "\(images)/rejected/jan.png"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr.contains("Warning: \(images)/rejected/jan.png: EAN-13 4901234567894 refused, prefix: prefix 490 is not 978: Japanese JAN product code\n"))
        #expect(run.stderr.contains("\(images)/negative/noise.png: no barcode found\n"))
    }

    @Test func allListsEveryCodeWithItsVerdict() throws {
        let run = try isbnscan(["scan", "--all", "\(images)/rejected/ean8.png"])
        #expect(run.status == 0)  // --all: any symbol counts
        #expect(run.stdout == "EAN-8 96385074 rejected length: 8 digits, an ISBN-13 has 13\n")
        let accepted = try isbnscan(["scan", "--all", "--addons", "\(images)/isbn/addon-ean5.png"])
        #expect(accepted.stdout == "EAN-13 9780553293357 accepted ISBN-10 0553293354 978-0-553-29335-7 (978-0 English language) add-on 51299 (USD 12.99)\n")
    }

    @Test func addonsFollowTheISBN() throws {
        let run = try isbnscan(["scan", "--addons", "\(images)/isbn/addon-ean2.png"])
        #expect(run.stdout == "9780439708180 12\n")
    }

    @Test func roiBandSkipsTheBookAboveIt() throws {
        let band = try isbnscan(["scan", "--roi", "0.05,0.4,0.9,0.15", "\(images)/roi/band-two-books.png"])
        #expect(band.stdout == "9780743273565\n")
        let avFoundation = try isbnscan(["scan", "--roi-avfoundation=0.4,0.05,0.15,0.9", "\(images)/roi/band-two-books.png"])
        #expect(avFoundation.stdout == "9780743273565\n")
        let whole = try isbnscan(["scan", "\(images)/roi/band-two-books.png"])
        #expect(whole.stdout == "9780451524935\n9780743273565\n")
        let outside = try isbnscan(["scan", "--roi", "0.05,0.4,0.9,0.15", "\(images)/roi/band-outside.png"])
        #expect(outside.status == 4)
        #expect(outside.stdout == "")
    }

    @Test func jsonLinesCarryEverything() throws {
        let run = try isbnscan(["scan", "--json", "--addons", "\(images)/isbn/addon-ean5.png", "\(images)/rejected/jan.png",
                                "\(images)/corrupt/empty.png"])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.count == 3)

        #expect(lines[0]["file"] as? String == "\(images)/isbn/addon-ean5.png")
        #expect(lines[0]["error"] is NSNull)
        let symbol = (lines[0]["symbols"] as! [[String: Any]])[0]
        #expect(symbol["type"] as? String == "EAN-13")
        #expect(symbol["data"] as? String == "9780553293357")
        #expect(symbol["addon"] as? String == "51299")
        #expect(symbol["verdict"] as? String == "accepted")
        #expect((symbol["quality"] as? Int ?? 0) > 0)
        #expect((symbol["polygon"] as? [[Int]])?.count == 4)
        let isbn = (lines[0]["isbns"] as! [[String: Any]])[0]
        #expect(isbn["isbn13"] as? String == "9780553293357")
        #expect(isbn["isbn10"] as? String == "0553293354")

        let rejected = (lines[1]["rejected"] as! [[String: Any]])[0]
        #expect(rejected["data"] as? String == "4901234567894")
        #expect(rejected["reason"] as? String == "prefix")
        #expect((lines[1]["symbols"] as! [[String: Any]]).count == 1)  // listed even without --all
        #expect((lines[1]["isbns"] as! [Any]).isEmpty)

        #expect(lines[2]["error"] as? String == "empty file (0 bytes)")
        #expect(run.stderr.contains("Error: \(images)/corrupt/empty.png: empty file (0 bytes)\n"))
    }

    @Test func jsonEscapesFileNames() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-json-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quote\"back\\slash\ttab.png"
        try FileManager.default.copyItem(atPath: "\(images)/isbn/png-gray8.png", toPath: path)
        let run = try isbnscan(["scan", "--json", path])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(object["file"] as? String == path)
    }

    @Test func permissionDeniedIsNamed() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-perm-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/secret.png"
        try FileManager.default.copyItem(atPath: "\(images)/isbn/png-gray8.png", toPath: path)
        chmod(path, 0o000)
        // As root everything is readable, so drop to 'nobody' for this run.
        let run = try isbnscan(["scan", path], as: getuid() == 0 ? "65534" : nil)
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(path): permission denied\n")
    }

    @Test func maxPixelsRefusesBigImages() throws {
        let run = try isbnscan(["scan", "--max-pixels", "1000", "\(images)/isbn/png-gray8.png"])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(images)/isbn/png-gray8.png: image is 501x312 = 156312 pixels, over the limit of 1000 (see --max-pixels)\n")
    }

    @Test func dashReadsStandardInput() throws {
        let run = try isbnscan(["scan", "-"], stdinFile: "\(images)/isbn/jpeg-gray.jpg")
        #expect(run.status == 0)
        #expect(run.stdout == "9780321125217\n")
    }

    @Test func effortFastSkipsRecoveryPasses() throws {
        // A negative (light bars on dark) needs the inversion pass.
        let directory = NSTemporaryDirectory() + "isbnscan-effort-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try Data(contentsOf: URL(fileURLWithPath: "\(images)/isbn/pgm-p5.pgm"))
        let headerEnd = source.indices.filter { source[$0] == 0x0A }[2] + 1  // "P5\nW H\n255\n"
        let negative = source.prefix(headerEnd) + Data(source.dropFirst(headerEnd).map { 255 - $0 })
        try negative.write(to: URL(fileURLWithPath: "\(directory)/negative.pgm"))
        let fast = try isbnscan(["scan", "--effort", "fast", "\(directory)/negative.pgm"])
        #expect(fast.status == 4)
        let normal = try isbnscan(["scan", "--json", "\(directory)/negative.pgm"])
        #expect(normal.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(normal.stdout.utf8)) as! [String: Any]
        let symbol = (object["symbols"] as! [[String: Any]])[0]
        #expect(symbol["data"] as? String == "9780321573513")
        #expect((symbol["pass"] as? String)?.hasPrefix("invert") == true)
    }

    @Test func regionWarningSaysTheRegion() throws {
        let run = try isbnscan(["scan", "--roi", "0.05,0.4,0.9,0.15", "\(images)/roi/band-outside.png"])
        #expect(run.stderr == "Warning: \(images)/roi/band-outside.png: no barcode found in the region of interest\n")
    }

    @Test func specialFilesAreRefusedWithoutHanging() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-special-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo("\(directory)/fifo", 0o644) == 0)
        let run = try isbnscan(["scan", "\(directory)/fifo", "/dev/zero", "\(images)/isbn/png-gray8.png"])
        #expect(run.status == 1)
        #expect(run.stdout == "\(images)/isbn/png-gray8.png: 9780306406157\n")
        #expect(run.stderr.contains("Error: \(directory)/fifo: unsupported format: not a regular file (a device, FIFO or socket)\n"))
        #expect(run.stderr.contains("Error: /dev/zero: unsupported format: not a regular file (a device, FIFO or socket)\n"))
    }

    @Test func controlCharactersInNamesAreEscapedInText() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-names-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: "\(images)/isbn/png-gray8.png", toPath: "\(directory)/a\nb.png")
        let run = try isbnscan(["scan", "\(directory)/a\nb.png", "\(directory)/c\td.png"])
        #expect(run.stdout == "\(directory)/a\\nb.png: 9780306406157\n")
        #expect(run.stderr.hasPrefix("Error: \(directory)/c\\td.png: no such file\n"))
    }

    @Test func quietKeepsErrorsOnly() throws {
        let run = try isbnscan(["scan", "-q", "\(images)/rejected/jan.png", "\(images)/corrupt/empty.png"])
        #expect(run.stderr == "Error: \(images)/corrupt/empty.png: empty file (0 bytes)\n")
    }

    /// A barcode with its middle cut out reads as nothing; the report says where it is and what
    /// to do (issue 10): a `"candidates"` list in JSON, and the warning.
    @Test func anUnreadableBarcodeLikeRegionIsReported() throws {
        let directory = NSTemporaryDirectory() + "isbnscan-candidate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // pgm-p5.pgm (250x156, the EAN-13 9780306406157) doubled to 500x312 on a 900x700 grey page,
        // with the columns of its middle guard and neighbours made white.
        let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/pgm-p5.pgm")))
        let pixels = Array(source.suffix(250 * 156))
        var page = [UInt8](repeating: 200, count: 900 * 700)
        for y in 0..<312 {
            for x in 0..<500 {
                page[(200 + y) * 900 + 200 + x] = x >= 230 && x < 290 ? 255 : pixels[(y / 2) * 250 + x / 2]
            }
        }
        let path = "\(directory)/cut.pgm"
        try (Data("P5\n900 700\n255\n".utf8) + Data(page)).write(to: URL(fileURLWithPath: path))
        let run = try isbnscan(["scan", "--json", path])
        #expect(run.status == 4)
        #expect(run.stdout.contains(#""symbols": [], "isbns": [], "rejected": [], "error": null, "candidates": [{"polygon": [["#),
                "\(run.stdout)")
        #expect(run.stderr.contains("Warning: \(path): no barcode found; something that looks like a barcode (top-left "),
                "\(run.stderr)")
        #expect(run.stderr.contains("could not be read: retake it closer and sharper"))
        // The whole barcode: read, and no candidate left over.
        let whole = try isbnscan(["scan", "--json", "\(testImages)/isbn/pgm-p5.pgm"])
        #expect(whole.status == 0 && !whole.stdout.contains("candidates"))
        // A region around the damaged code, clear of it: the same advice.
        let around = try isbnscan(["scan", "--roi", "0.1,0.1,0.8,0.8", path])
        #expect(around.stderr.contains("could not be read: retake it closer and sharper"), "\(around.stderr)")
    }

    /// A --roi that cuts the barcode off says so, rather than asking for a better photo.
    @Test(arguments: ["0.1,0,0.5,1", "0.5,0,0.5,1", "0,0,0.5,0.6"])
    func regionCuttingTheBarcodeSaysSo(roi: String) throws {
        let path = "\(testImages)/isbn/pgm-p5.pgm"   // 250x156, the barcode across most of it
        let run = try isbnscan(["scan", "--roi", roi, path])
        #expect(run.status == 4)
        #expect(run.stderr.hasPrefix("Warning: \(path): no barcode found in the region of interest; something that looks like a barcode ("),
                "\(run.stderr)")
        #expect(run.stderr.hasSuffix(") could not be read: the region of interest cuts it off; widen --roi, or --roi 0,0,1,1 reads the whole picture\n"),
                "\(run.stderr)")
    }

}
