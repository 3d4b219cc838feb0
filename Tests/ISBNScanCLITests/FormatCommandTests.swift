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

    /// A TIFF of `pages` pages (uncompressed 8-bit gray, TIFF 6.0 baseline, little-endian):
    /// `last` (a PGM's bytes) as the last page, 8×8 white before it.
    static func manyPageTIFF(pages: Int, last pgm: Data) throws -> Data {
        // P5 header: "P5\n<w> <h>\n255\n", then the rows.
        let header = String(decoding: pgm.prefix(15), as: UTF8.self).split(whereSeparator: { $0.isWhitespace })
        try #require(header.count >= 3 && header[0] == "P5")
        let width = try #require(Int(header[1])), height = try #require(Int(header[2]))
        let pixels = pgm.suffix(width * height)
        var file = Data("II".utf8) + le16(42) + le32(8)
        for page in 0..<pages {
            let (w, h, data) = page == pages - 1 ? (width, height, Data(pixels)) : (8, 8, Data(repeating: 255, count: 64))
            let entries: [(tag: UInt16, value: Int)] = [(256, w), (257, h), (258, 8), (259, 1), (262, 1), (273, 0), (277, 1), (278, h),
                                                        (279, data.count)]
            let ifdSize = 2 + entries.count * 12 + 4
            let stripOffset = file.count + ifdSize
            let next = page == pages - 1 ? 0 : stripOffset + data.count
            file += le16(entries.count)
            for entry in entries {
                // LONG (type 4), one value.
                file += le16(Int(entry.tag)) + le16(4) + le32(1) + le32(entry.tag == 273 ? stripOffset : entry.value)
            }
            file += le32(next) + data
        }
        return file
    }
    static func le16(_ v: Int) -> Data { Data([UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]) }
    static func le32(_ v: Int) -> Data { Data((0..<4).map { UInt8(v >> ($0 * 8) & 0xFF) }) }

    /// Every page is read up to --max-pages (default 10000): a barcode on page 1101 is found;
    /// with --max-pages 10 the pages after the tenth are left out and a warning says how many.
    @Test func pagesAreReadUpToMaxPages() throws {
        let shelf = try Shelf([:])
        defer { shelf.remove() }
        let file = shelf.path + "/feeder.tif"
        let pgm = try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/pgm-p5.pgm"))
        try Self.manyPageTIFF(pages: 1101, last: pgm).write(to: URL(fileURLWithPath: file))
        let all = try isbnscan(["scan", "--json", file])
        #expect(all.status == 0, "\(all.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        #expect(record["pages"] as? Int == 1101)
        #expect(record["warning"] == nil)
        let isbns = try #require(record["isbns"] as? [[String: Any]])
        #expect(isbns.map { $0["isbn13"] as? String } == ["9780321573513"])
        #expect(isbns.map { $0["page"] as? Int } == [1101])
        #expect(all.stderr == "")

        let capped = try isbnscan(["scan", "--max-pages", "10", "--json", file])
        #expect(capped.status == 4)
        let cappedRecord = try #require(try JSONSerialization.jsonObject(with: Data(capped.stdout.utf8)) as? [String: Any])
        #expect(cappedRecord["pages"] as? Int == 1101)
        #expect(cappedRecord["warning"] as? String == "pages 11-1101 left out: 1091 of 1101 pages past --max-pages 10")
        #expect(capped.stderr == "Warning: \(file): pages 11-1101 left out: 1091 of 1101 pages past --max-pages 10\n"
                + "Warning: \(file): no barcode found\n")
        let zero = try isbnscan(["scan", "--max-pages", "0", file])
        #expect(zero.status == 2)
        #expect(zero.stderr.hasPrefix("Error: --max-pages 0 is outside 1...1000000\n"))
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
