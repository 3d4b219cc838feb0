// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import Imaging
@testable import Batch
import TestSupport

@Suite struct FolderWalkerTests {
    /// The walk's inputs as paths relative to `root`.
    func relative(_ walk: FolderWalk, to root: String) -> [String] {
        walk.inputs.map { String($0.path.description.dropFirst(root.count + 1)) }
    }

    @Test func foldersAreSortedByteWiseWithSubfoldersInPlace() throws {
        let scratch = try Scratch("walk-order")
        defer { scratch.cleanup() }
        for name in ["b.png", "a.png", "B.png", "sub/z.png", "sub/deeper/y.png", "sub-c.png", ".hidden.png", ".git/x.png"] {
            try scratch.copy("isbn/png-gray8.png", to: name)
        }
        let flat = FolderWalker.walk([RawPath(scratch.path)])
        #expect(relative(flat, to: scratch.path) == ["B.png", "a.png", "b.png", "sub-c.png"])
        #expect(flat.skippedFolders == 1)
        #expect(flat.skippedHidden == 2)

        let deep = FolderWalker.walk([RawPath(scratch.path)], options: WalkOptions(recursive: true))
        #expect(relative(deep, to: scratch.path) == ["B.png", "a.png", "b.png", "sub/deeper/y.png", "sub/z.png", "sub-c.png"])
        #expect(deep.inputs.allSatisfy { $0.foundInFolder && $0.error == nil })

        let all = FolderWalker.walk([RawPath(scratch.path)], options: WalkOptions(recursive: true, includeHidden: true))
        #expect(relative(all, to: scratch.path).prefix(2) == [".git/x.png", ".hidden.png"])
        #expect(all.inputs.count == 8)
    }

    /// Links into the kernel's file systems, or to `/` (`/proc/self/root`), are not followed by -r.
    @Test func theWalkDoesNotCrossIntoProcSysDevOrTheRoot() throws {
        let scratch = try Scratch("walk-system")
        defer { scratch.cleanup() }
        try scratch.copy("isbn/png-gray8.png", to: "a.png")
        for (name, target) in [("root", "/proc/self/root"), ("dev", "/dev"), ("slash", "/"), ("sys", "/sys/kernel")] {
            try FileManager.default.createSymbolicLink(atPath: "\(scratch.path)/\(name)", withDestinationPath: target)
        }
        let walk = FolderWalker.walk([RawPath(scratch.path)], options: WalkOptions(recursive: true))
        #expect(relative(walk, to: scratch.path) == ["a.png"])
        #expect(walk.skippedSystem == 4)
        // Named, a system folder is walked; its links back to / are still not followed.
        let named = FolderWalker.walk([RawPath("/proc/self")], options: WalkOptions(recursive: false))
        #expect(named.foldersGiven == 1 && named.skippedSystem == 0 && !named.inputs.isEmpty)
        #expect(FolderWalker.systemFolder(of: RawPath("/proc/self/root")) == [])
        #expect(FolderWalker.systemFolder(of: RawPath("/proc/self")) == Array("/proc".utf8))
        #expect(FolderWalker.systemFolder(of: RawPath(scratch.path)) == nil)
    }

    @Test func commandLinePathsKeepTheirOrderAndAreNeverSkipped() throws {
        let scratch = try Scratch("walk-args")
        defer { scratch.cleanup() }
        try scratch.copy("isbn/png-gray8.png", to: ".hidden.png")
        let paths = ["\(scratch.path)/zz-missing.png", "\(scratch.path)/.hidden.png", "-"].map(RawPath.init)
        let walk = FolderWalker.walk(paths)
        #expect(walk.inputs == paths.map { BatchInput(path: $0, foundInFolder: false) })
    }

    @Test func symlinkLoopsEndAndAreReported() throws {
        let scratch = try Scratch("walk-loop")
        defer { scratch.cleanup() }
        try scratch.copy("isbn/png-gray8.png", to: "books/a.png")
        #expect(symlink("..", "\(scratch.path)/books/up") == 0)
        #expect(symlink(".", "\(scratch.path)/books/self") == 0)
        let walk = FolderWalker.walk([RawPath(scratch.path)], options: WalkOptions(recursive: true))
        #expect(relative(walk, to: scratch.path) == ["books/a.png"])
        #expect(walk.revisitedFolders.map(\.description) == ["\(scratch.path)/books/self", "\(scratch.path)/books/up"])
    }

    @Test func brokenSymlinksAreErrorsAtTheirPlace() throws {
        let scratch = try Scratch("walk-broken")
        defer { scratch.cleanup() }
        try scratch.copy("isbn/png-gray8.png", to: "a.png")
        try scratch.copy("isbn/png-gray8.png", to: "c.png")
        #expect(symlink("nowhere.png", "\(scratch.path)/b.png") == 0)
        let walk = FolderWalker.walk([RawPath(scratch.path)])
        #expect(relative(walk, to: scratch.path) == ["a.png", "b.png", "c.png"])
        #expect(walk.inputs[1].error == .brokenSymlink(path: "\(scratch.path)/b.png"))
        #expect(walk.inputs[1].error?.cause == "broken symbolic link (its target does not exist)")
    }

    @Test func nonUTF8NamesAreKeptAsBytes() throws {
        let scratch = try Scratch("walk-bytes")
        defer { scratch.cleanup() }
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)  // Latin-1 "café.png"
        let path = RawPath(scratch.path).appending(name)
        let source = try Data(contentsOf: URL(fileURLWithPath: "\(testImages)/isbn/png-gray8.png"))
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT, 0o644) }
        #expect(fd >= 0)
        _ = source.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let walk = FolderWalker.walk([RawPath(scratch.path)])
        #expect(walk.inputs.map(\.path) == [path])
        #expect(walk.inputs[0].path.description == "\(scratch.path)/caf\\xE9.png")
        #expect(!walk.inputs[0].path.isValidUTF8)
    }

    @Test func rawPathDescriptionEscapesOnlyInvalidBytes() {
        #expect(RawPath(bytes: Array("été/ok".utf8)).description == "été/ok")
        #expect(RawPath(bytes: [0x61, 0xFF, 0xC3, 0x62]).description == "a\\xFF\\xC3b")
        #expect(RawPath(bytes: [0xE2, 0x82]).description == "\\xE2\\x82")
        #expect(RawPath("dir/").appending(Array("x".utf8)).description == "dir/x")
        #expect(Array(RawPath("a/b/c.png").lastComponent) == Array("c.png".utf8))
        #expect(RawPath("a/B") < RawPath("a/b"))
    }
}
