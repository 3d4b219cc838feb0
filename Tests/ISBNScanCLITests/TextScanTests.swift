// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// `scan --text` and `--effort thorough` on the pages of TestImages/text (printed ISBNs, no barcode).
@Suite struct TextScanTests {
    let pages = "\(testImages)/text"

    @Test func aPrintedISBNIsReadOnlyWithTextOrAtThorough() throws {
        let page = "\(pages)/isbn10-hyphenated.png"
        let plain = try isbnscan(["scan", page])
        #expect(plain.status == 4)
        #expect(plain.stdout == "")
        #expect(plain.stderr == "Warning: \(page): no barcode found\n")
        let text = try isbnscan(["scan", "--text", page])
        #expect(text.status == 0)
        #expect(text.stdout == "9780306406157\n")
        #expect(text.stderr == "")
        let thorough = try isbnscan(["scan", "--effort", "thorough", page])
        #expect(thorough.status == 0)
        #expect(thorough.stdout == "9780306406157\n")
        // A photo whose barcode is read is not read as text at thorough: its ISBN is the barcode's.
        let barcode = try isbnscan(["scan", "--effort", "thorough", "--all", "\(testImages)/isbn/png-gray8.png"])
        #expect(barcode.stdout.hasPrefix("EAN-13 9780306406157 accepted"))
        #expect(!barcode.stdout.contains("ISBN text"))
    }

    /// A barcode with its ISBN printed as text beneath it (TestImages/text/barcode-and-isbn-line.png,
    /// and a real photo, the corpus's quagga2/ean13-extension/image-004.jpg, where the line lies
    /// above the bars): one book, listed once; `--all` and `--csv` keep both readings.
    @Test func aBarcodeAndItsPrintedLineAreOneBook() throws {
        let photo = "\(pages)/barcode-and-isbn-line.png"
        let text = try isbnscan(["scan", "--text", photo])
        #expect(text.status == 0)
        #expect(text.stdout == "9780306406157\n")
        #expect(text.stderr == "")
        let all = try isbnscan(["scan", "--text", "--all", photo])
        #expect(all.stdout == """
            EAN-13 9780306406157 accepted ISBN-10 0306406152 978-0-306-40615-7 (978-0 English language)
            ISBN text 9780306406157 accepted ISBN-10 0306406152 978-0-306-40615-7 (978-0 English language)

            """)
        let csv = try isbnscan(["scan", "--text", "--csv", photo])
        #expect(csv.stdout.components(separatedBy: "\r\n").dropLast().map { $0.split(separator: ",", omittingEmptySubsequences: false)[3] }
                == ["type", "EAN-13", "ISBN text"])
        let named = try isbnscan(["scan", "--text", photo, "\(testImages)/isbn/png-gray8.png"])
        #expect(named.stdout == "\(photo): 9780306406157\n\(testImages)/isbn/png-gray8.png: 9780306406157\n")
        let real = "\(sharedCorpus)/quagga2/ean13-extension/image-004.jpg"
        let corpusRun = try isbnscan(["scan", "--text", real])
        #expect(corpusRun.status == 0)
        #expect(corpusRun.stdout == "9780544668256\n")
        #expect(try isbnscan(["scan", "--text", "--all", real]).stdout == """
            ISBN text 9780544668256 accepted ISBN-10 0544668251 978-0-544-66825-6 (978-0 English language)
            EAN-13 9780544668256 accepted ISBN-10 0544668251 978-0-544-66825-6 (978-0 English language)

            """)
    }

    @Test func allShowsTheTypeTheHyphenationAndTheQualifier() throws {
        let run = try isbnscan(["scan", "--text", "--all", "\(pages)/two-isbns-qualifiers.png"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            ISBN text 9780306406157 accepted ISBN-10 0306406152 978-0-306-40615-7 (978-0 English language) qualifier pbk.
            ISBN text 9781566199094 accepted ISBN-10 1566199093 978-1-56619-909-4 (978-1 English language) qualifier hardcover

            """)
    }

    @Test func jsonHasTheLineTheQualifierAndAPolygon() throws {
        let run = try isbnscan(["scan", "--text", "--json", "\(pages)/two-isbns-qualifiers.png"])
        #expect(run.status == 0)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let symbols = try #require(record["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["type"] as? String } == ["ISBN text", "ISBN text"])
        #expect(symbols.map { $0["data"] as? String } == ["9780306406157", "9781566199094"])
        #expect(symbols.map { $0["pass"] as? String } == ["text", "text"])
        #expect(symbols.map { $0["qualifier"] as? String } == ["pbk.", "hardcover"])
        #expect((symbols.first?["text"] as? String)?.hasPrefix("ISBN 0-306-40615-2") == true)
        let polygon = try #require(symbols.first?["polygon"] as? [[Int]])
        #expect(polygon.count == 4)
        // The second line of the page (y from 72 at 28 px per em), left-aligned at x = 40.
        #expect(polygon.allSatisfy { (25...60).contains($0[0]) || $0[0] > 300 })
        #expect(polygon.allSatisfy { (55...120).contains($0[1]) })
        let isbns = try #require(record["isbns"] as? [[String: Any]])
        #expect(isbns.map { $0["hyphenated"] as? String } == ["978-0-306-40615-7", "978-1-56619-909-4"])
        #expect(isbns.map { $0["qualifier"] as? String } == ["pbk.", "hardcover"])
    }

    /// A photo stored turned, with the EXIF tag that turns it upright (TestImages/text/exif-orientation-N.jpg:
    /// isbn10-hyphenated, 384x186): read on the upright page, so the line reads left to right (orientation 0)
    /// and its polygon lies on the page's third line (y from 114 at 28 px per em, from x = 40).
    @Test(arguments: [3, 6, 8])
    func aPhotoTurnedByItsEXIFTagIsReadUpright(orientation: Int) throws {
        let run = try isbnscan(["scan", "--text", "--json", "\(pages)/exif-orientation-\(orientation).jpg"])
        #expect(run.status == 0)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(record["width"] as? Int == 384)
        #expect(record["height"] as? Int == 186)
        let symbols = try #require(record["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["data"] as? String } == ["9780306406157"])
        #expect(symbols.map { $0["orientation"] as? Int } == [0])
        let polygon = try #require(symbols.first?["polygon"] as? [[Int]])
        #expect(polygon.count == 4)
        #expect(polygon.allSatisfy { (105...160).contains($0[1]) && (25...345).contains($0[0]) }, "\(polygon)")
    }

    @Test func csvNamesTheType() throws {
        let run = try isbnscan(["scan", "--text", "--csv", "\(pages)/isbn13-japan.png"])
        #expect(run.status == 0)
        let rows = run.stdout.components(separatedBy: "\r\n")
        #expect(rows[1] == "\(pages)/isbn13-japan.png,9784101010014,4101010013,ISBN text,9784101010014,,accepted,,978-4-10-101001-4,978-4,Japan,,,,")  // ..., price, page, warning, c_code
    }

    @Test func aWrongCheckDigitIsRefusedAndAPageOfNumbersGivesNothing() throws {
        let wrong = "\(pages)/wrong-check-digit.png"
        let refused = try isbnscan(["scan", "--text", "--json", wrong])
        #expect(refused.status == 4)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])
        let rejected = try #require(record["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect(rejected.first?["type"] as? String == "ISBN text")
        #expect(rejected.first?["data"] as? String == "0306406153")
        #expect(rejected.first?["reason"] as? String == "check-digit")
        #expect(rejected.first?["detail"] as? String == "ISBN-10 check digit is 3, expected 2")

        let numbers = "\(pages)/no-isbn-numbers.png"
        let none = try isbnscan(["scan", "--text", numbers])
        #expect(none.status == 4)
        #expect(none.stdout == "")
        #expect(none.stderr == "Warning: \(numbers): no barcode or printed ISBN found\n")
    }

    /// A line the photo cuts through (`ISBN 978-1-58573-0…`): its ten digits pass the ISBN-10
    /// check by chance, and are refused as possibly cut short, with advice.
    @Test func aLineCutByThePhotosEdgeIsRefusedWithAdvice() throws {
        let file = "\(pages)/cut-off-by-the-edge.png"
        let run = try isbnscan(["scan", "--text", file])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr == "Warning: \(file): ISBN text 9781585730 refused, length: the printed line runs off the edge of the photo "
                + "after 9781585730: digits may be missing: take the photo again\n")
    }

    /// A real photo whose barcode is covered and whose ISBN line the photo cuts off
    /// (TestImages/covered/ean13-3-30.jpg): nothing is read, and stderr holds isbnscan's warning
    /// only (Tesseract's Leptonica prints "Error in boxClipToRectangle: box outside rectangle" on it
    /// when left to itself).
    @Test func stderrHoldsOnlyIsbnscansOwnWords() throws {
        let file = "\(testImages)/covered/ean13-3-30.jpg"
        let run = try isbnscan(["scan", "--text", file])
        #expect(run.status == 4)
        #expect(run.stdout == "")
        #expect(run.stderr == "Warning: \(file): no barcode or printed ISBN found\n")
    }

    @Test func theCatalogueKeepsPrintedISBNs() throws {
        let db = NSTemporaryDirectory() + "isbnscan-text-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: db) }
        let scan = try isbnscan(["scan", "--text", "--db", db, "\(pages)/isbn10-x-check-digit.png"])
        #expect(scan.status == 0)
        #expect(scan.stdout == "9780804429573\n")
        let list = try isbnscan(["catalog", "list", "--db", db])
        #expect(list.status == 0)
        #expect(list.stdout.contains("9780804429573"), "\(list.stdout)")
    }

    /// TestImages/witness: bars whose upper half reads 9780716717720 and lower half 9780716777120.
    /// The digits printed under them settle it with --text and at thorough; not at normal alone.
    @Test func theDigitsPrintedUnderAmbiguousBarsSettleThem() throws {
        let file = "\(testImages)/witness/two-ways-printed-true.png"
        let bars = try isbnscan(["scan", file])
        #expect(bars.status == 4)
        #expect(bars.stdout == "")
        #expect(bars.stderr == """
            Warning: \(file): EAN-13 9780716777120 refused, ambiguous: the same barcode also read as 9780716717720; \
            neither is trusted: take the photo again (sharper, closer) or type the digits printed under the barcode
            Warning: \(file): EAN-13 9780716717720 refused, ambiguous: the same barcode also read as 9780716777120; \
            neither is trusted: take the photo again (sharper, closer) or type the digits printed under the barcode

            """)
        let text = try isbnscan(["scan", "--text", "--all", file])
        #expect(text.status == 0)
        #expect(text.stdout == """
            EAN-13 9780716777120 rejected misread: probable misread of 9780716717720: the bars also read 9780716717720, \
            and the digits printed under the barcode read 9780716717720
            EAN-13 9780716717720 accepted ISBN-10 0716717727 978-0-7167-1772-0 (978-0 English language) printed digits 9780716717720

            """)
        #expect(text.stderr == "")
        let thorough = try isbnscan(["scan", "--effort", "thorough", file])
        #expect(thorough.status == 0)
        #expect(thorough.stdout == "9780716717720\n")
        let json = try isbnscan(["scan", "--text", "--json", file])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let symbols = try #require(record["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["printed_digits"] as? String } == ["9780716717720", "9780716717720"])
        #expect(symbols.map { $0["verdict"] as? String } == ["rejected", "accepted"])
        let isbns = try #require(record["isbns"] as? [[String: Any]])
        #expect(isbns.map { $0["isbn13"] as? String } == ["9780716717720"])
    }

    /// Printed digits that are neither code the bars read leave the place refused; a barcode its
    /// bars decide is not read as text, whatever is printed under it.
    @Test func printedDigitsNeverMakeAnISBNTheBarsDoNotRead() throws {
        let other = "\(testImages)/witness/two-ways-printed-other.png"
        let refused = try isbnscan(["scan", "--text", other])
        #expect(refused.status == 4)
        #expect(refused.stdout == "")
        #expect(refused.stderr.contains("EAN-13 9780716717720 refused, ambiguous: the same barcode also read as 9780716777120; "
                                        + "neither is trusted; the digits printed under it read 9780716717744, which the bars do not read"))
        let plain = "\(testImages)/witness/plain-printed-other.png"
        let decided = try isbnscan(["scan", "--text", "--json", plain])
        #expect(decided.status == 0)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(decided.stdout.utf8)) as? [String: Any])
        let symbols = try #require(record["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["data"] as? String } == ["9780716717720"])
        #expect(symbols.map { $0["printed_digits"] as? String } == [nil])
    }
}
