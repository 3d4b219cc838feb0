// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import ISBN
@testable import Scanning
import TestSupport

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

    /// What to tell someone whose checkout lacks the corpus (`nil` when all 38 images are
    /// there): which folder is missing, and how to get it.
    static func missingCorpus(root: String, found: Int) -> String? {
        guard found != 38 else { return nil }
        let state = FileManager.default.fileExists(atPath: root) ? "holds \(found) of the 38 images" : "is missing"
        return """
            The corpus folder \(root) \(state). The corpus tests read 38 real photos \
            (NAME.png + NAME.txt in ean13-1, ean13-3, ean13-extension-1, ean8-1) from \
            ../shared/corpus/zxing-cpp beside the checkout, as CI lays it out. Get it: copy the \
            shared corpus folder there, or set ISBNSCAN_CORPUS=/path/to/corpus; the images are \
            zxing-cpp's test/samples (github.com/zxing-cpp/zxing-cpp, commit 77dceca), converted \
            from WebP to PNG. See README.md, "Tests".
            """
    }

    @Test func corpusIsPresent() {
        let problem = Self.missingCorpus(root: Self.root, found: Self.images.count)
        #expect(problem == nil, Comment(rawValue: problem ?? ""))
    }

    @Test func aMissingCorpusIsNamedWithTheFix() throws {
        let root = NSTemporaryDirectory() + "isbnscan-no-corpus-\(UUID().uuidString)/zxing-cpp"
        let message = try #require(Self.missingCorpus(root: root, found: 0))
        #expect(message.hasPrefix("The corpus folder \(root) is missing. The corpus tests read 38 real photos "))
        #expect(message.contains("Get it: copy the shared corpus folder there, or set ISBNSCAN_CORPUS=/path/to/corpus;"))
        #expect(Self.missingCorpus(root: testImages, found: 3)?.hasPrefix("The corpus folder \(testImages) holds 3 of the 38 images.") == true)
        #expect(Self.missingCorpus(root: root, found: 38) == nil)
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
        if let problem = Self.missingCorpus(root: Self.root, found: Self.images.count) {
            Issue.record(Comment(rawValue: problem))
            return
        }
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
