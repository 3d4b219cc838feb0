import Foundation
import Testing
import ISBN
@testable import Scanning

/// Real photos from `../shared/corpus/zxing-cpp` (see its README): folder names give the
/// symbology; each `.txt` holds the expected digits (EAN-13 + add-on in ean13-extension-1).
@Suite struct CorpusTests {
    static let root = "\(sharedCorpus)/zxing-cpp"
    static let images = ["ean13-1", "ean13-3", "ean13-extension-1", "ean8-1"].flatMap { fixtures($0, root: root) }

    /// The images zbarimg 0.23.92 reads on its own (main code), which we must read too.
    static let zbarReads: Set<String> = Set(images.map(\.file)).subtracting([
        "ean13-1/#526.png", "ean13-1/10.png", "ean13-1/20.png", "ean13-1/34.png", "ean13-1/36.png",
        "ean13-1/37.png", "ean8-1/single-line.png",
    ])

    func read(_ file: String) -> ScanReport? {
        FileScanner(scannerOptions: ScannerOptions(addOns: true)).scanFile(path: "\(Self.root)/\(file)").report
    }

    @Test func corpusIsPresent() {
        #expect(Self.images.count == 38, "expected 38 corpus images at \(Self.root)")
    }

    @Test(arguments: images)
    func neverAcceptsAWrongISBN(file: String, expected: String) throws {
        let report = try #require(read(file))
        for isbn in report.isbns { #expect(isbn.isbn13 == String(expected.prefix(13)), "\(file)") }
        for code in report.codes where code.symbol.data != String(expected.prefix(code.symbol.data.count)) {
            Issue.record("\(file): read \(code.symbol.data) (\(code.symbol.pass)), expected \(expected)")
        }
    }

    @Test func readsEverythingZbarReadsAndMore() throws {
        var readFiles: Set<String> = []
        for (file, expected) in Self.images {
            let main = String(expected.prefix(file.hasPrefix("ean8") ? 8 : 13))
            if read(file)?.codes.contains(where: { $0.symbol.data == main }) == true { readFiles.insert(file) }
        }
        #expect(Self.zbarReads.subtracting(readFiles).isEmpty, "missed: \(Self.zbarReads.subtracting(readFiles).sorted())")
        #expect(readFiles.count >= 37, "read \(readFiles.count) of \(Self.images.count)")
        // Read only by the per-character line decoder: a curved barcode, an 11-pixel strip,
        // a one-pixel-high line with no quiet zone.
        #expect(readFiles.isSuperset(of: ["ean13-1/10.png", "ean13-1/#526.png", "ean8-1/single-line.png"]))
        // Out of focus: read after unsharp masking.
        #expect(readFiles.isSuperset(of: ["ean13-1/36.png", "ean13-1/37.png"]))
    }

    @Test(arguments: images.filter { $0.file.hasPrefix("ean13-extension-1") && $0.file != "ean13-extension-1/38.png" })
    func addOnsAreRead(file: String, expected: String) throws {
        let report = try #require(read(file))
        #expect(report.codes.first.map { $0.symbol.data + ($0.symbol.addOn ?? "") } == expected)
    }
}
