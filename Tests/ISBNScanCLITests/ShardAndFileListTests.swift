// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// `scan --files-from`, `-0` and `--shard`: batches split over several processes or machines.
@Suite struct ShardAndFileListTests {
    /// Starts `isbnscan` with each argument list at once, then waits for all; stdout of each.
    func runTogether(_ runs: [[String]]) throws -> [(status: Int32, stdout: String)] {
        let base = NSTemporaryDirectory() + "isbnscan-shards-\(UUID().uuidString)"
        var started: [(Process, String)] = []
        for (index, arguments) in runs.enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: isbnscanBinary)
            process.arguments = arguments
            let out = "\(base)-\(index).out"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            started.append((process, out))
        }
        return try started.map { process, out in
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(atPath: out) }
            return (process.terminationStatus, String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self))
        }
    }

    /// The `"file"` of each JSON line.
    func files(_ jsonLines: String) throws -> [String] {
        try jsonLines.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["file"] as? String)
        }
    }

    @Test func fourShardsAtOnceCoverTheSingleRunExactlyOnce() throws {
        let single = try isbnscan(["scan", "-r", "--json", "--all", testImages])
        #expect(single.status == 1)  // TestImages/corrupt
        let singleLines = single.stdout.split(separator: "\n").map(String.init)
        #expect(singleLines.count == 122)  // one JSON line per image file in TestImages

        let shards = try runTogether((0..<4).map { ["scan", "-r", "--json", "--all", "--shard", "\($0)/4", testImages] })
        var seen: [String: Int] = [:]
        for (index, shard) in shards.enumerated() {
            let lines = shard.stdout.split(separator: "\n").map(String.init)
            #expect(!lines.isEmpty, "shard \(index) is empty")
            // Each shard keeps the single run's order and its exact lines.
            #expect(lines == singleLines.filter { lines.contains($0) })
            for file in try files(shard.stdout) { seen[file, default: 0] += 1 }
        }
        #expect(seen.values.allSatisfy { $0 == 1 }, "a file in two shards: \(seen.filter { $0.value > 1 })")
        #expect(Set(seen.keys) == Set(try files(single.stdout)))
        let union = shards.flatMap { $0.stdout.split(separator: "\n").map(String.init) }
        #expect(union.sorted() == singleLines.sorted())
        // Exit statuses: the shard holding a corrupt file says 1, like the single run.
        #expect(shards.contains { $0.status == 1 })
        #expect(shards.allSatisfy { [0, 1, 4].contains($0.status) })
    }

    @Test func aShardKeepsItsFilesWhenOthersAreAdded() throws {
        let names = (1...24).map { "IMG_\(String($0 + 1000).dropFirst()).png" }
        let shelf = try Shelf(Dictionary(uniqueKeysWithValues: names.map { ($0, "isbn/png-gray8.png") }))
        defer { shelf.remove() }
        let before = try runTogether((0..<3).map { ["scan", "--json", "--shard", "\($0)/3", shelf.path] })
        try FileManager.default.createDirectory(atPath: "\(shelf.path)/a", withIntermediateDirectories: true)
        for more in ["IMG_1000.png", "IMG_0500.png", "zz.png", "a/b.png", "IMG_012b.png"] {
            try FileManager.default.copyItem(atPath: "\(testImages)/isbn/png-gray1.png", toPath: "\(shelf.path)/\(more)")
        }
        let after = try runTogether((0..<3).map { ["scan", "-r", "--json", "--shard", "\($0)/3", shelf.path] })
        var total = 0
        for shard in 0..<3 {
            let old = try files(before[shard].stdout), new = try files(after[shard].stdout)
            #expect(!old.isEmpty)
            #expect(new.filter { names.contains(($0 as NSString).lastPathComponent) } == old)
            total += new.count
        }
        #expect(total == 29)
    }

    @Test func filesFromReadsNewlineAndNulSeparatedLists() throws {
        let shelf = try Shelf(["with space.png": "isbn/png-gray8.png", "new\nline.jpg": "isbn/jpeg-gray.jpg",
                               "sub/c.png": "isbn/addon-ean5.png"])
        defer { shelf.remove() }
        let p = shelf.path
        // Newline-separated, from a file, after an argument; blank lines skipped; a folder is walked.
        let list = p + "/list.txt"
        try Data("\(p)/with space.png\n\n\(p)/sub\n".utf8).write(to: URL(fileURLWithPath: list))
        let fromFile = try isbnscan(["scan", "-q", "--files-from", list, "\(testImages)/isbn/pgm-p5.pgm"])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdout == "\(testImages)/isbn/pgm-p5.pgm: 9780321573513\n\(p)/with space.png: 9780306406157\n\(p)/sub/c.png: 9780553293357\n")

        // NUL-separated on standard input, as find -print0 writes it: a newline inside a name.
        let nulList = p + "/list0"
        try Data("\(p)/new\nline.jpg\0\(p)/with space.png\0".utf8).write(to: URL(fileURLWithPath: nulList))
        let fromStdin = try isbnscan(["scan", "-q", "--files-from", "-", "-0"], stdinFile: nulList)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout == "\(p)/new\\nline.jpg: 9780321125217\n\(p)/with space.png: 9780306406157\n")

        // A -print0 list without -0 is a usage error that says what to add.
        let missingZero = try isbnscan(["scan", "--files-from", "-"], stdinFile: nulList)
        #expect(missingZero.status == 2)
        #expect(missingZero.stderr.hasPrefix("Error: standard input line 2 holds a NUL byte: for a NUL-separated list (find -print0) add -0\n"))
        #expect(missingZero.stdout.isEmpty)

        // An empty list is an empty batch: nothing found.
        let empty = try isbnscan(["scan", "--files-from", "/dev/null"])
        #expect(empty.status == 4)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr.hasPrefix("scanned 0 files: "))
    }

    @Test func badListsAndShardsAreClearErrors() throws {
        let missing = try isbnscan(["scan", "--files-from", "/nonexistent/list.txt"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: /nonexistent/list.txt: cannot read the file list: No such file or directory\n")
        let folder = try isbnscan(["scan", "--files-from", testImages])
        #expect(folder.status == 1)
        #expect(folder.stderr == "Error: \(testImages): cannot read the file list: Is a directory\n")

        let cases: [([String], String)] = [
            (["scan", "--shard", "4/4", "x.png"], "Error: --shard 4/4: i counts from 0, so with n = 4 it is 0...3\n"),
            (["scan", "--shard", "/4", "x.png"], "Error: --shard '/4' is not i/n (shard i of n, i counting from 0: 0/4 1/4 2/4 3/4)\n"),
            (["scan", "--shard", "-1/4", "x.png"], "Error: --shard '-1/4' is not i/n (shard i of n, i counting from 0: 0/4 1/4 2/4 3/4)\n"),
            (["scan", "--shard", "0/0", "x.png"], "Error: --shard 0/0: n must be 1...1000000\n"),
            (["scan", "-0", "x.png"], "Error: -0 (--null) describes the list of --files-from; give the list with --files-from FILE\n"),
            (["scan", "--files-from", "-", "-"], "Error: --files-from - reads the list from standard input; '-' cannot also be an image\n"),
        ]
        for (arguments, message) in cases {
            let run = try isbnscan(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
        }
    }
}
