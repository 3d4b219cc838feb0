// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import Imaging
import Scanning
@testable import Batch
import TestSupport

@Suite struct BatchScannerTests {
    func makeScanner() -> FileScanner { FileScanner(effort: .fast) }

    /// What each delivered outcome says, in delivery order.
    func summaries(_ inputs: [BatchInput], jobs: Int) -> [String] {
        var out: [String] = []
        var indices: [Int] = []
        let batch = BatchScanner(jobs: jobs) { FileScanner(effort: .fast) }
        batch.run(inputs) { index, outcome in
            indices.append(index)
            switch outcome {
            case .skipped(let path): out.append("skipped \(path)")
            case .scanned(let result):
                out.append(result.error.map { "error \($0)" } ?? "\(result.path) \(result.report!.isbns.map(\.isbn13))")
            }
        }
        #expect(indices == Array(inputs.indices))
        return out
    }

    /// The progress bar's total: `willBeLeftOut` must agree with what `run` skips.
    @Test func willBeLeftOutPredictsWhatRunSkips() throws {
        let scratch = try Scratch("left-out")
        defer { scratch.cleanup() }
        try scratch.copy("isbn/png-gray8.png", to: "a.png")
        try scratch.copy("isbn/png-gray8.png", to: "photo")         // an image without an extension
        try scratch.write("hello", to: "notes.txt")
        try scratch.write("shelf photos", to: "README")
        try scratch.write("", to: "empty.json")
        try scratch.write("not a photo", to: "fake.jpg")            // named like an image: reported
        try scratch.write("GIF89a.........", to: "anim.dat")        // a known format: reported
        try Data([0x89, 0x50, 0x4E]).write(to: URL(fileURLWithPath: "\(scratch.path)/short.bin"))  // PNG signature cut short: reported
        let walk = FolderWalker.walk([RawPath(scratch.path)])
        var skipped: [String] = []
        BatchScanner(jobs: 2) { FileScanner(effort: .fast) }.run(walk.inputs) { _, outcome in
            if case .skipped(let path) = outcome { skipped.append(path) }
        }
        let predicted = walk.inputs.filter(BatchScanner.willBeLeftOut).map(\.path.description)
        #expect(predicted == skipped)
        #expect(predicted == ["README", "empty.json", "notes.txt"].map { "\(scratch.path)/\($0)" })
        // Files named on the command line are never left out.
        #expect(!BatchScanner.willBeLeftOut(BatchInput(path: RawPath("\(scratch.path)/notes.txt"), foundInFolder: false)))
    }

    @Test(arguments: [1, 2, 4, 16])
    func resultsComeInInputOrderWhateverTheJobs(jobs: Int) throws {
        let files = ["isbn/png-gray8.png", "isbn/jpeg-cmyk.jpg", "negative/noise.png", "corrupt/truncated-header.png",
                     "isbn/photo-like.jpg", "rejected/jan.png", "isbn/pgm-p5.pgm"]
        let inputs = (0..<5).flatMap { _ in files }.map { BatchInput(path: RawPath("\(testImages)/\($0)"), foundInFolder: false) }
        let sequential = inputs.map { input -> String in
            let result = makeScanner().scanFile(path: input.path)
            return result.error.map { "error \($0)" } ?? "\(result.path) \(result.report!.isbns.map(\.isbn13))"
        }
        #expect(summaries(inputs, jobs: jobs) == sequential)
        #expect(sequential[0] == "\(testImages)/isbn/png-gray8.png [\"9780306406157\"]")
        #expect(sequential[3] == "error \(testImages)/corrupt/truncated-header.png: truncated: file ends before the image does")
    }

    @Test func nonImagesInFoldersAreSkippedUnlessNamedLikeImages() throws {
        let scratch = try Scratch("batch-skip")
        defer { scratch.cleanup() }
        try scratch.write("hello", to: "notes.txt")
        try scratch.write("", to: "empty.dat")
        try scratch.write("", to: "empty.jpg")
        try scratch.write("<html>", to: "page.JPG")
        try scratch.write("%PDF-1.4 a scan", to: "anim.bin")
        try scratch.copy("isbn/png-gray8.png", to: "README")  // a PNG without extension is still read
        let walk = FolderWalker.walk([RawPath(scratch.path)])
        let p = scratch.path
        #expect(summaries(walk.inputs, jobs: 2) == [
            "README [\"9780306406157\"]".replacingOccurrences(of: "README", with: "\(p)/README"),
            "error \(p)/anim.bin: unsupported format: PDF (isbnscan reads PNG, JPEG, TIFF, WebP, GIF, HEIF/HEIC, BMP, PGM and PPM)",
            "skipped \(p)/empty.dat",
            "error \(p)/empty.jpg: empty file (0 bytes)",
            "skipped \(p)/notes.txt",
            "error \(p)/page.JPG: unsupported format: not an image (no PNG, JPEG, TIFF, WebP, GIF, HEIF/HEIC, BMP, PGM or PPM signature)",
        ])
    }

    @Test func aFileVanishingAfterTheListingIsAnError() throws {
        let scratch = try Scratch("batch-vanish")
        defer { scratch.cleanup() }
        try scratch.copy("isbn/png-gray8.png", to: "a.png")
        try scratch.copy("isbn/png-gray8.png", to: "b.png")
        let walk = FolderWalker.walk([RawPath(scratch.path)])
        try FileManager.default.removeItem(atPath: "\(scratch.path)/a.png")
        #expect(summaries(walk.inputs, jobs: 2) == ["error \(scratch.path)/a.png: no such file",
                                                    "\(scratch.path)/b.png [\"9780306406157\"]"])
    }

    @Test func stopDeliversAContiguousPrefixAndEndsEarly() throws {
        let inputs = (0..<200).map { _ in BatchInput(path: RawPath("\(testImages)/isbn/png-gray8.png"), foundInFolder: false) }
        let batch = BatchScanner(jobs: 2) { FileScanner(effort: .fast) }
        var delivered: [Int] = []
        let count = batch.run(inputs) { index, _ in
            delivered.append(index)
            if index == 9 { batch.stop() }
        }
        #expect(count == delivered.count)
        #expect(delivered == Array(0..<count))
        // 10, plus whatever the workers had finished or had in flight when the stop came.
        #expect(count >= 10 && count < 200)
        #expect(batch.isStopped)
    }

    @Test func emptyInputDeliversNothing() {
        let batch = BatchScanner(jobs: 4) { FileScanner() }
        #expect(batch.run([]) { _, _ in Issue.record("nothing to deliver") } == 0)
    }
}
