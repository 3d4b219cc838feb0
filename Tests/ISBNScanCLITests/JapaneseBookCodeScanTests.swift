// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// The second row of a Japanese book's barcode (書籍JANコード) read beside its ISBN, and alone.
@Suite struct JapaneseBookCodeScanTests {
    static let folder = "\(testImages)/jpbook"
    static let secondRow = #"{"code": "1923055032002", "c_code": "3055", "audience": {"ja": "専門", "en": "Specialist"}, "#
        + #""format": {"ja": "単行本", "en": "Monograph"}, "subject": {"ja": "電子通信", "en": "Electronics, telecommunications"}, "#
        + #""price_yen": 3200, "tax_included": false}"#

    @Test(arguments: ["two-rows.png", "two-rows-photo.jpg"])
    func belongsToTheISBNBesideIt(file: String) throws {
        let run = try isbnscan(["scan", "--json", "\(Self.folder)/\(file)"])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""isbns": [{"isbn13": "9784048930659", "isbn10": "4048930656", "addon": null, "#))
        #expect(run.stdout.contains(#""price": null, "jp_book_code": \#(Self.secondRow)}]"#))
        #expect(run.stdout.contains(#""verdict": "jp-book-code", "reason": null, "isbn13": "9784048930659", "jp_book_code": "#))
        #expect(run.stdout.contains(#""rejected": [], "error": null"#))
        // Not a refused product code: no warning about it.
        #expect(!run.stderr.contains("1923055032002"))
    }

    @Test func textAndCSV() throws {
        let text = try isbnscan(["scan", "--all", "\(Self.folder)/two-rows.png"])
        #expect(text.stdout == """
            EAN-13 9784048930659 accepted ISBN-10 4048930656 978-4-04-893065-9 (978-4 Japan)
            EAN-13 1923055032002 Japanese book code of 9784048930659: C-code 3055 専門/単行本/電子通信 \
            (Specialist/Monograph/Electronics, telecommunications), 3200 yen before tax

            """)
        let csv = try isbnscan(["scan", "--csv", "\(Self.folder)/two-rows.png"])
        let rows = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(rows.count == 3)
        #expect(rows[2] == "\(Self.folder)/two-rows.png,9784048930659,,EAN-13,1923055032002,,jp-book-code,,,,,JPY 3200,,,3055")
    }

    @Test func aloneItIsSaidWhatItIs() throws {
        let run = try isbnscan(["scan", "--json", "\(Self.folder)/second-row-alone.png"])
        #expect(run.status == 4)
        #expect(run.stdout.contains(#""isbns": [], "rejected": [{"type": "EAN-13", "data": "1920095015002", "reason": "jp-book-code", "#
            + #""detail": "a Japanese book code (書籍JANコード second row: C-code 0095 一般/単行本/日本文学、評論、随筆、その他 "#
            + #"(General/Monograph/Japanese literature: criticism, essays, other), 1500 yen before tax), not an ISBN; "#
            + #"the ISBN is the other barcode of the pair"}]"#))
        #expect(run.stdout.contains(#""verdict": "rejected", "reason": "jp-book-code", "jp_book_code": {"code": "1920095015002", "c_code": "0095", "#))
    }

    static let described = "C-code 3055 専門/単行本/電子通信 (Specialist/Monograph/Electronics, telecommunications), 3200 yen before tax"

    /// The catalogue keeps the second row with its book, from a file or from the camera (whose
    /// sightings have no file record), through a merge: `catalog list` shows it, as text and
    /// JSON, and the CSV export has its C-code and price.
    @Test func theCatalogueKeepsTheSecondRowWithItsBook() throws {
        let shelf = try Shelf(["two-rows.png": "jpbook/two-rows.png", "a.png": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let files = shelf.path + "/files.db", camera = shelf.path + "/camera.db", merged = shelf.path + "/merged.db"
        #expect(try isbnscan(["scan", "--db", files, shelf.path + "/two-rows.png", shelf.path + "/a.png"]).status == 0)
        let fake = CameraCommandTests.Fake(["FRAMES": "\(Self.folder)/two-rows.png", "FPS": "0"])
        #expect(try fake.run(["--roi", "0,0,1,1", "--max-frames", "60", "--db", camera]).status == 0)
        #expect(try isbnscan(["catalog", "merge", "--db", merged, camera]).status == 0)
        for db in [files, camera, merged] {
            let list = try isbnscan(["catalog", "list", "--db", db]).stdout.split(separator: "\n")
            #expect(list.first?.hasPrefix("9784048930659 978-4-04-893065-9 978-4 1 ") == true, "\(db)")
            #expect(list.first?.hasSuffix(" | " + Self.described) == true, "\(db)")
            let json = try isbnscan(["catalog", "list", "--json", "--db", db]).stdout
            #expect(json.contains(#""price": null, "jp_book_code": \#(Self.secondRow), "count": 1, "#), "\(db)")
        }
        let rows = try isbnscan(["catalog", "export", "--db", files]).stdout.components(separatedBy: "\r\n")
        #expect(rows[0].hasSuffix(",addon,price,title,authors,publisher,year,c_code"))
        #expect(rows[1].hasSuffix("/two-rows.png,,JPY 3200,,,,,3055"))
        #expect(rows[2].hasSuffix("/a.png,,,,,,,"))
        #expect(try isbnscan(["catalog", "list", "--db", files]).stdout.split(separator: "\n").last?.hasSuffix("/a.png") == true)
    }

    /// The camera on the fake device, the two-row barcode (zint) in view: the ISBN printed with
    /// its second row, which is not a refused code.
    @Test func theCameraPrintsTheISBNWithItsSecondRow() throws {
        let fake = CameraCommandTests.Fake(["FRAMES": "\(Self.folder)/two-rows.png", "FPS": "0"])
        let run = try fake.run(["--roi", "0,0,1,1", "--max-frames", "60"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "9784048930659 C-code 3055 専門/単行本/電子通信 (Specialist/Monograph/Electronics, telecommunications), "
                + "3200 yen before tax\n")
        #expect(!run.stderr.contains("Warning:"))
        let json = try fake.run(["--roi", "0,0,1,1", "--max-frames", "60", "--json"])
        #expect(json.stdout.contains(#""isbns": [{"isbn13": "9784048930659", "isbn10": "4048930656", "addon": null, "#))
        #expect(json.stdout.contains(#""jp_book_code": \#(Self.secondRow)}]"#))
        #expect(json.stdout.split(separator: "\n").count == 1)
    }

    /// The second row alone before the camera: nothing printed, said once on stderr what it is.
    @Test func theCameraSaysWhatASecondRowAloneIs() throws {
        let fake = CameraCommandTests.Fake(["FRAMES": "\(Self.folder)/second-row-alone.png", "FPS": "0"])
        let run = try fake.run(["--roi", "0,0,1,1", "--max-frames", "60", "--continuous"])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("1920095015002") }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("camera: frame ") == true)
        #expect(lines.first?.hasSuffix(": 1920095015002 is a Japanese book code (書籍JANコード second row: C-code 0095 "
                                      + "一般/単行本/日本文学、評論、随筆、その他 (General/Monograph/Japanese literature: criticism, essays, other), "
                                      + "1500 yen before tax), not an ISBN; the ISBN is the other barcode of the pair") == true)
        #expect(!run.stderr.contains("Warning:"))
    }
}
