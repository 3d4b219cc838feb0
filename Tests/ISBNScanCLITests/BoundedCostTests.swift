// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

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

    /// A valid small image of every other format (and PGM/PPM) followed by a 300 MB tail (a
    /// sparse file): read in memory that follows the image. Peak resident memory of the child,
    /// from wait4, stays under 100 MB (a debug build scanning these images peaks near 20 MB; a
    /// whole-file read would need over 300 MB).
    @Test(arguments: [("formats/tiff-g4.tif", "9780321573513"), ("formats/tiff-multipage.tif", "9780321573513 (page 2)"),
                      ("formats/webp-lossy.webp", "9780596009205"), ("formats/webp-lossless.webp", "9780321573513"),
                      ("formats/gif-rgb.gif", "9780596009205"), ("formats/heic-gray.heic", "9780306406157"),
                      ("formats/bmp-gray8.bmp", "9780321573513"), ("isbn/pgm-p5-16bit.pgm", "9781449355739"),
                      ("isbn/ppm-p6.ppm", "9780596009205")])
    func aHugeTailCostsTheMemoryOfTheImage(file: String, isbn: String) throws {
        let shelf = try Shelf(["image": file])
        defer { shelf.remove() }
        let path = "\(shelf.path)/image"
        #expect(truncate(path, 300_000_000) == 0)
        let measured = try isbnscanMeasured(["scan", path])
        #expect(measured.run.stdout == "\(isbn)\n")
        #expect(measured.run.stderr == "")
        #expect(measured.run.status == 0)
        #expect(measured.peak(isUnder: 100_000), "peak \(measured.peakKiB) KiB (this process: \(measured.ownKiB)) for a 300 MB file")
        // The same file on standard input (a redirect: a regular file) is read the same way.
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let fromStdin = try isbnscanMeasured(["scan", "-"], stdin: fd)
        #expect(fromStdin.run.stdout == "\(isbn)\n")
        #expect(fromStdin.peak(isUnder: 100_000), "peak \(fromStdin.peakKiB) KiB (this process: \(fromStdin.ownKiB)) for a 300 MB file on standard input")
    }

    /// A WebP whose RIFF header claims 4 GB, followed by 300 MB: at most 4 bytes a canvas pixel
    /// plus 16 MiB are read (peak near 35 MB in a debug build).
    @Test func aWebPWhoseRIFFLengthLiesCostsTheMemoryOfItsCanvas() throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(testImages)/formats/webp-lossy.webp")))
        bytes.replaceSubrange(4..<8, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let shelf = try Shelf([:])
        defer { shelf.remove() }
        let path = "\(shelf.path)/lies.webp"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, 300_000_000) == 0)
        let measured = try isbnscanMeasured(["scan", path])
        #expect(measured.run.stdout == "9780596009205\n")
        #expect(measured.run.status == 0)
        #expect(measured.peak(isUnder: 100_000), "peak \(measured.peakKiB) KiB (this process: \(measured.ownKiB)) for a 300 MB file")
    }

    /// Standard input through a pipe is read into memory, at most 100 MiB: a 300 MB stream is a
    /// clear error, in memory bounded by that limit rather than by the stream.
    @Test func standardInputThroughAPipeOverTheLimitIsAClearError() throws {
        let shelf = try Shelf(["image": "isbn/png-gray8.png"])
        defer { shelf.remove() }
        let path = "\(shelf.path)/image"
        #expect(truncate(path, 300_000_000) == 0)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        // cat writes the file into the pipe; isbnscan reads the other end.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        let argv: [UnsafeMutablePointer<CChar>?] = ([String](arrayLiteral: "/bin/cat", path)).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var cat: pid_t = 0
        #expect(posix_spawn(&cat, "/bin/cat", &actions, nil, argv, environ) == 0)
        close(ends[1])
        let measured = try isbnscanMeasured(["scan", "-"], stdin: ends[0])
        close(ends[0])
        var catStatus: Int32 = 0
        waitpid(cat, &catStatus, 0)
        #expect(measured.run.status == 1)
        #expect(measured.run.stderr == "Error: -: more than 100 MiB on standard input (the limit for '-'; give the file's name instead)\n")
        #expect(measured.peak(isUnder: 250_000), "peak \(measured.peakKiB) KiB (this process: \(measured.ownKiB))")
    }

    @Test func standardInputUnderTheLimitReadsThroughAPipeToo() throws {
        let run = try isbnscan(["-c", "cat '\(testImages)/isbn/png-gray8.png' | exec \"$0\" scan -", isbnscanBinary],
                               executable: "/bin/sh")
        #expect(run.stdout == "9780306406157\n")
        #expect(run.status == 0)
    }
}
