// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// `scan` on the formats beyond PNG/JPEG/PNM, and the page of a multi-page TIFF in the output.
@Suite struct FormatCommandTests {
    @Test func everyFormatIsReadByTheCommand() throws {
        let folder = "\(testImages)/formats"
        let run = try isbnscan(["scan", "-q", folder])
        #expect(run.status == 0)
        let expected = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasSuffix(".txt") }.map { name in
            let code = try String(contentsOfFile: "\(folder)/\((name as NSString).deletingPathExtension).txt", encoding: .utf8)
            return "\(folder)/\(name): \(code)" + (name == "tiff-multipage.tif" ? " (page 2)" : "")
        }
        #expect(run.stdout == expected.joined(separator: "\n") + "\n")
    }

    @Test func jsonNamesThePageOfEachCode() throws {
        let run = try isbnscan(["scan", "--json", "\(testImages)/formats/tiff-multipage.tif"])
        #expect(run.status == 0)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(record["pages"] as? Int == 2)
        let isbns = try #require(record["isbns"] as? [[String: Any]])
        #expect(isbns.map { $0["isbn13"] as? String } == ["9780321573513"])
        #expect(isbns.map { $0["page"] as? Int } == [2])
        let symbols = try #require(record["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["page"] as? Int } == [2])
        // A single-page file has no page keys.
        let single = try isbnscan(["scan", "--json", "\(testImages)/formats/tiff-g4.tif"])
        #expect(!single.stdout.contains("\"page"))
    }

    /// CSV carries the page like the JSON: the `page` column (from 1), empty for a single image.
    @Test func csvNamesThePageOfEachCode() throws {
        let tiff = "\(testImages)/formats/tiff-multipage.tif", single = "\(testImages)/formats/tiff-g4.tif"
        let run = try isbnscan(["scan", "--csv", tiff, single])
        #expect(run.status == 0)
        #expect(run.stdout == "file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,price,page,warning,c_code\r\n"
                + "\(tiff),9780321573513,032157351X,EAN-13,9780321573513,,accepted,,978-0-321-57351-3,978-0,English language,,2,,\r\n"
                + "\(single),9780321573513,032157351X,EAN-13,9780321573513,,accepted,,978-0-321-57351-3,978-0,English language,,,,\r\n")
    }
}

/// Damaged photos: the barcode in the intact part is read, with a warning, and the file counts as read.
@Suite struct DamagedFileCommandTests {
    @Test func theBarcodeInTheIntactPartIsReadWithAWarning() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/photo-like.jpg")))
        var garbled = whole
        var state: UInt32 = 7
        let garbage = (0..<400).map { _ -> UInt8 in state = state &* 1_103_515_245 &+ 12345; return UInt8(state >> 24) }
        garbled.insert(contentsOf: [0xFF, 0xE5] + garbage, at: whole.count * 9 / 10)
        let shelf = try Shelf([:])
        defer { shelf.remove() }
        try Data(whole.prefix(whole.count * 8 / 10)).write(to: URL(fileURLWithPath: "\(shelf.path)/cut.jpg"))
        try Data(garbled).write(to: URL(fileURLWithPath: "\(shelf.path)/garbled.jpg"))
        let run = try isbnscan(["scan", "\(shelf.path)/cut.jpg", "\(shelf.path)/garbled.jpg"])
        #expect(run.status == 0)
        #expect(run.stdout == "\(shelf.path)/cut.jpg: 9780140449136\n\(shelf.path)/garbled.jpg: 9780140449136\n")
        #expect(run.stderr.contains("Warning: \(shelf.path)/cut.jpg: truncated: decoded "))
        #expect(run.stderr.contains("Warning: \(shelf.path)/garbled.jpg: corrupt data: decoded "))
        #expect(run.stderr.contains("scanned 2 files: 2 with an ISBN, 0 with refused codes only, 0 without any barcode, 0 unreadable"))

        let json = try isbnscan(["scan", "--json", "\(shelf.path)/cut.jpg"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let warning = try #require(record["warning"] as? String)
        #expect(warning.hasPrefix("truncated: decoded ") && warning.hasSuffix(" of 750 rows"))
        #expect(record["error"] is NSNull)
    }

    /// CSV carries the warning like the JSON: the `warning` column, on the row of each code and on
    /// a `no-barcode` row.
    @Test func csvCarriesTheWarning() throws {
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/photo-like.jpg")))
        let blank = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/negative/blank.png")))
        let shelf = try Shelf([:])
        defer { shelf.remove() }
        let (cut, blankCut) = ("\(shelf.path)/cut.jpg", "\(shelf.path)/blank-cut.png")
        try Data(photo.prefix(photo.count * 8 / 10)).write(to: URL(fileURLWithPath: cut))
        try Data(blank.prefix(blank.count * 6 / 10)).write(to: URL(fileURLWithPath: blankCut))
        let run = try isbnscan(["scan", "--csv", cut, blankCut])
        #expect(run.status == 0)
        #expect(run.stdout == "file,isbn13,isbn10,type,data,addon,status,error,hyphenated,group,agency,price,page,warning,c_code\r\n"
                + "\(cut),9780140449136,0140449132,EAN-13,9780140449136,,accepted,,978-0-14-044913-6,978-0,English language,,,"
                + "truncated: decoded 544 of 750 rows,\r\n"
                + "\(blankCut),,,,,,no-barcode,,,,,,,truncated: decoded 170 of 300 rows,\r\n")
    }
}
