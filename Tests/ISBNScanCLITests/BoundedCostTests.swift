import Foundation
import Testing

/// Hostile files made in the test: each ends with a clear error or a result, in bounded memory.
@Suite struct BoundedCostTests {
    /// Runs `isbnscan` under `ulimit -v` (KiB of address space): a run whose memory followed the
    /// file size instead of the image size would fail with out of memory.
    func isbnscanLimited(_ arguments: [String], kilobytes: Int, stdinFile: String? = nil) throws -> Run {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try isbnscan(["-c", "ulimit -v \(kilobytes); exec \"$0\" \(quoted)", isbnscanBinary],
                            stdinFile: stdinFile, executable: "/bin/sh")
    }

    @Test func aProgressiveJPEGWithThousandsOfScansIsRefused() throws {
        // jpeg-progressive.jpg with its last scan (SOS … up to EOI) repeated 3000 times.
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/jpeg-progressive.jpg")))
        let lastScan = try #require((0..<(data.count - 1)).last { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        let scan = Array(data[lastScan..<(data.count - 2)])
        let hostile = Array(data[..<lastScan]) + Array(repeating: scan, count: 3000).flatMap { $0 } + [0xFF, 0xD9]
        let shelf = try Shelf([:])
        defer { shelf.remove() }
        let path = "\(shelf.path)/scans.jpg"
        try Data(hostile).write(to: URL(fileURLWithPath: path))
        let run = try isbnscan(["scan", path])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(path): corrupt JPEG: more than 100 progressive scans (a normal file has about 10; refused to bound the cost)\n")
    }

    /// A valid PNG or JPEG followed by 1.5 GB (a sparse file): read in memory that follows the
    /// image, not the file (an address-space limit of 300 MB would stop a whole-file read).
    @Test(arguments: [("isbn/png-gray8.png", "9780306406157"), ("isbn/photo-like.jpg", "9780140449136")])
    func aHugeTailAfterTheImageIsNeverRead(file: String, isbn: String) throws {
        let shelf = try Shelf(["image": file])
        defer { shelf.remove() }
        let path = "\(shelf.path)/image"
        #expect(truncate(path, 1_500_000_000) == 0)
        let run = try isbnscanLimited(["scan", path], kilobytes: 300_000)
        #expect(run.stdout == "\(isbn)\n")
        #expect(run.status == 0)
    }

    /// A 404-byte PNG (a fuzz finding, Fuzz/regressions/png-text-claims-2gb.png) whose tEXt
    /// chunk claims 2 GB: libpng allocated the declared length before reading it. Text chunks
    /// are now skipped unread: a clear error under a 300 MB address-space limit.
    @Test func aChunkClaimingGigabytesIsNotAllocated() throws {
        let path = URL(fileURLWithPath: testImages).deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/png-text-claims-2gb.png").path
        let run = try isbnscanLimited(["scan", path], kilobytes: 300_000)
        #expect(run.status == 1)
        #expect(run.stderr == "Error: \(path): truncated: file ends before the image does\n")
    }

    @Test func standardInputOverTheLimitIsAClearError() throws {
        let shelf = try Shelf(["image": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let path = "\(shelf.path)/image"
        #expect(truncate(path, 101 << 20) == 0)   // over the 100 MiB limit for '-'
        let run = try isbnscan(["scan", "-"], stdinFile: path)
        #expect(run.status == 1)
        #expect(run.stderr == "Error: -: more than 100 MiB on standard input (the limit for '-'; give the file's name instead)\n")
        // Under the limit, the same image reads from standard input.
        #expect(truncate(path, 1 << 20) == 0)
        let small = try isbnscan(["scan", "-"], stdinFile: path)
        #expect(small.stdout == "9780306406157\n")
    }
}
