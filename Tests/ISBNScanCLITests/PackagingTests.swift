// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import ISBNScanCLI
import TestSupport

/// `make install` and `make deb`: the installed binary needs no Swift toolchain, and the package's
/// binary, man page and completions work from a scratch root. Serialized: both build the same
/// static binary (in .build/static, apart from this test build).
///
/// Enabled by ISBNSCAN_PACKAGING_TESTS=1, which `make test` sets; it runs each suite in a process
/// of its own (Tests/run-suites.py), so the release build this suite starts (compiler, linker)
/// never counts in the peak memory that other tests read from `getrusage(RUSAGE_CHILDREN)`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["ISBNSCAN_PACKAGING_TESTS"] == "1",
                             "set ISBNSCAN_PACKAGING_TESTS=1 (make test does) to build and check the install and the .deb"))
struct PackagingTests {
    let repository = (testImages as NSString).deletingLastPathComponent

    /// Runs a program (absolute path) with arguments; stdout and stderr apart.
    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        try isbnscan(Array(arguments.dropFirst()), environment: environment, in: repository, executable: arguments[0])
    }

    func scratch(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "isbnscan-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The folder of the Swift runtime the test build of isbnscan loads (the toolchain's
    /// lib/swift/linux), from `ldd`.
    var toolchainLibraries: String? {
        guard let ldd = try? run(["/usr/bin/ldd", isbnscanBinary]) else { return nil }
        let line = ldd.stdout.split(separator: "\n").first { $0.contains("libswiftCore.so => /") }
        return line.map { (String($0.split(separator: " ")[2]) as NSString).deletingLastPathComponent }
    }

    /// The commit make builds this checkout as (ISBNSCAN_COMMIT when make test passes it down,
    /// else the Makefile's `git describe`), which the binaries it makes name in `--version`.
    func commit() throws -> String {
        if let given = ProcessInfo.processInfo.environment["ISBNSCAN_COMMIT"] { return given }
        let describe = try run(["/usr/bin/git", "describe", "--always", "--abbrev=12", "--match=NONE", "--dirty=-modified"])
        try #require(describe.status == 0, "\(describe.stderr)")
        return describe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks that `binary` runs on Debian libraries alone: no runpath, no Swift library needed,
    /// every library resolved under /lib or /usr/lib, and it runs with an empty environment.
    func checkStandalone(_ binary: String) throws {
        let dynamic = try run(["/usr/bin/readelf", "-d", binary])
        #expect(dynamic.status == 0)
        #expect(dynamic.stdout.contains("Shared library: [libzbar.so.0]"))
        #expect(!dynamic.stdout.contains("RUNPATH") && !dynamic.stdout.contains("RPATH"), "\(dynamic.stdout)")
        #expect(!dynamic.stdout.contains("libswift") && !dynamic.stdout.contains("Foundation"), "\(dynamic.stdout)")
        let ldd = try run(["/usr/bin/ldd", binary])
        #expect(ldd.status == 0)
        #expect(!ldd.stdout.contains("not found"))
        let toolchain = try #require(toolchainLibraries)
        #expect(!ldd.stdout.contains(toolchain), "\(ldd.stdout)")
        #expect(!ldd.stdout.lowercased().contains("swift"), "\(ldd.stdout)")
        for line in ldd.stdout.split(separator: "\n") where line.contains("=> /") {
            let path = String(line.split(separator: " ")[2])
            #expect(path.hasPrefix("/lib/") || path.hasPrefix("/usr/lib/"), "\(line)")
        }
        let version = try run(["/usr/bin/env", "-i", binary, "--version"])
        #expect(version.status == 0)
        let commit = try commit()
        #expect(version.stdout == "isbnscan \(ISBNScanCommand.version)\(commit.isEmpty ? "" : " (commit \(commit))")\n")
        let scan = try run(["/usr/bin/env", "-i", binary, "scan", "\(testImages)/isbn/png-gray8.png"])
        #expect(scan.status == 0)
        #expect(scan.stdout == "9780306406157\n")

        // With the toolchain's libraries hidden (a private mount namespace: needs root or user
        // namespaces), the binary still runs and the test build does not: proof that they are hidden.
        guard try run(["/usr/bin/unshare", "-m", "/bin/true"]).status == 0 else { return }
        let hide = "mount -t tmpfs none '\(toolchain)' && exec env -i"
        let hidden = try run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", "\(hide) '\(binary)' scan '\(testImages)/isbn/jpeg-gray.jpg'"])
        #expect(hidden.status == 0, "\(hidden.stderr)")
        #expect(hidden.stdout == "9780321125217\n")
        let control = try run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", "\(hide) '\(isbnscanBinary)' --version"])
        #expect(control.status == 127)
        #expect(control.stderr.contains("error while loading shared libraries: libswift"))
        // A chroot without /proc: the Swift runtime finds no arguments; a clear error, not a trap.
        let noProc = try run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", "umount -l /proc && exec env -i '\(binary)' --version"])
        #expect(noProc.status == 2)
        #expect(noProc.stderr == "Error: cannot read the command line: /proc is not mounted (the Swift runtime reads /proc/self/cmdline)\n")
    }

    @Test func installPutsAStandaloneBinaryManPageAndCompletionsUnderPrefix() throws {
        let root = try scratch("install")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let install = try run(["/usr/bin/make", "--no-print-directory", "install", "DESTDIR=\(root)", "PREFIX=/opt/books"])
        #expect(install.status == 0, "\(install.stderr)")
        let files: [(String, Int)] = [("bin/isbnscan", 0o755), ("share/man/man1/isbnscan.1", 0o644),
                                      ("share/bash-completion/completions/isbnscan", 0o644),
                                      ("share/zsh/site-functions/_isbnscan", 0o644),
                                      ("share/fish/vendor_completions.d/isbnscan.fish", 0o644)]
        for (file, mode) in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(root)/opt/books/\(file)")
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(file)")
        }
        try checkStandalone("\(root)/opt/books/bin/isbnscan")
        // About 11 MB stripped; Foundation linked in (an `import Foundation` in Sources) adds ~50 MB.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: "\(root)/opt/books/bin/isbnscan")[.size] as? Int)
        #expect(size < 20_000_000, "the installed binary is \(size) bytes: is Foundation linked in?")
        // The installed page and completions are what this build generates from its tables.
        let page = try String(contentsOfFile: "\(root)/opt/books/share/man/man1/isbnscan.1", encoding: .utf8)
        #expect(page == (try isbnscan(["help", "--man"])).stdout)
        let bash = try String(contentsOfFile: "\(root)/opt/books/share/bash-completion/completions/isbnscan", encoding: .utf8)
        #expect(bash == (try isbnscan(["help", "--completions", "bash"])).stdout)

        let uninstall = try run(["/usr/bin/make", "--no-print-directory", "uninstall", "DESTDIR=\(root)", "PREFIX=/opt/books"])
        #expect(uninstall.status == 0)
        for (file, _) in files { #expect(!FileManager.default.fileExists(atPath: "\(root)/opt/books/\(file)"), "\(file)") }
        // Every folder below DESTDIR was made by the install: none is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == [])
    }

    /// Every file and folder under `root` (relative paths, folders ending in "/").
    func tree(_ root: String) -> [String] {
        var found: [String] = []
        let walk = FileManager.default.enumerator(atPath: root)
        while let path = walk?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isFolder)
            found.append(path + (isFolder.boolValue ? "/" : ""))
        }
        return found.sorted()
    }

    /// make install into a prefix (no DESTDIR: mandb indexes the page), the page read with man
    /// (which caches it formatted in cat1), then make uninstall: the prefix is as it was, the
    /// folders that were there before kept, with what they held.
    @Test func uninstallLeavesThePrefixAsItWas() throws {
        let root = try scratch("prefix")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let prefix = root + "/local"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/man", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: prefix + "/bin/other-tool", atomically: true, encoding: .utf8)
        let before = tree(root)
        let make = ["/usr/bin/make", "--no-print-directory"]
        let install = try run(make + ["install", "PREFIX=\(prefix)"])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout.hasSuffix("make install: \(prefix)/bin/isbnscan, its man page and completions; make uninstall PREFIX=\(prefix) removes them\n"))
        let installed = tree(root)
        for path in ["local/bin/isbnscan", "local/share/man/man1/isbnscan.1", "local/share/man/index.db",
                     "local/share/isbnscan/install-manifest", "local/share/zsh/site-functions/_isbnscan"] {
            #expect(installed.contains(path), "\(path) not installed: \(installed)")
        }
        // mandb made cat1, where man keeps the page it formats.
        #expect(installed.contains("local/share/man/cat1/"))
        let page = try run(["/usr/bin/env", "MANPAGER=cat", "MANWIDTH=80", "/usr/bin/man", "-M", prefix + "/share/man", "isbnscan"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("isbnscan"))
        #expect(tree(root).contains("local/share/man/cat1/isbnscan.1.gz"))
        let uninstall = try run(make + ["uninstall", "PREFIX=\(prefix)"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(tree(root) == before)
    }

    @Test func debPackageUnpacksAndScans() throws {
        let maintainer = "isbnscan tests <tests@isbnscan.example>"
        let build = try run(["/usr/bin/make", "--no-print-directory", "deb", "DEB_MAINTAINER=\(maintainer)"])
        #expect(build.status == 0, "\(build.stderr)")
        // (The linker's warning about mktemp in Foundation may appear when the binary is linked.)
        #expect(!build.stderr.contains("dpkg-shlibdeps: warning") && !build.stderr.contains("dpkg-deb: warning"), "\(build.stderr)")
        let arch = try run(["/usr/bin/dpkg", "--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = "\(repository)/.build/deb/isbnscan_\(ISBNScanCommand.version)_\(arch).deb"
        #expect(build.stdout.hasSuffix(".build/deb/isbnscan_\(ISBNScanCommand.version)_\(arch).deb\n"))

        func field(_ name: String) throws -> String {
            try run(["/usr/bin/dpkg-deb", "-f", deb, name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try field("Package") == "isbnscan")
        #expect(try field("Version") == ISBNScanCommand.version)
        #expect(try field("Architecture") == arch)
        #expect(try field("Section") == "utils")
        #expect(try field("Maintainer") == maintainer)
        let depends = try field("Depends")
        for package in ["libc6 (>= ", "libzbar0 (>= ", "libpng16-16 (>= ", "libdeflate0 (>= ", "libjpeg62-turbo (>= ", "libexif12 (>= ",
                        "libsqlite3-0"] {
            #expect(depends.contains(package), "\(depends)")
        }
        #expect(!depends.lowercased().contains("swift"))
        // Opened on demand (dlopen), so only recommended: --preview, HEIF/AVIF, TIFF, lookup and --text need them.
        #expect(try field("Recommends") == "libsdl2-2.0-0, libheif1, libtiff6, libcurl4, libjson-c5, libxml2, libtesseract5, tesseract-ocr-eng")
        for package in ["libsdl2", "libheif", "libtiff", "libcurl", "libjson-c", "libxml2", "tesseract"] {
            #expect(!depends.contains(package), "\(depends)")
        }

        let listing = try run(["/usr/bin/dpkg-deb", "-c", deb]).stdout
        for file in ["./usr/bin/isbnscan", "./usr/share/man/man1/isbnscan.1.gz", "./usr/share/doc/isbnscan/copyright", "./usr/share/doc/isbnscan/changelog.gz",
                     "./usr/share/bash-completion/completions/isbnscan", "./usr/share/zsh/vendor-completions/_isbnscan",
                     "./usr/share/fish/vendor_completions.d/isbnscan.fish"] {
            #expect(listing.contains(" \(file)\n"), "\(file)")
        }
        #expect(listing.split(separator: "\n").allSatisfy { $0.contains(" root/root ") })

        let root = try scratch("deb-root")
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try run(["/usr/bin/dpkg-deb", "-x", deb, root]).status == 0)
        let binary = "\(root)/usr/bin/isbnscan"
        try checkStandalone(binary)
        // The packaged binary reads the test images exactly as this build does.
        let packaged = try run(["/usr/bin/env", "-i", binary, "scan", "-r", "--json", "--all", "-j", "2", testImages])
        let built = try isbnscan(["scan", "-r", "--json", "--all", "-j", "2", testImages])
        #expect(packaged.status == 1)  // TestImages/corrupt
        #expect(packaged.stdout.split(separator: "\n").count == 122)  // one JSON line per image file in TestImages
        #expect(packaged.stdout == built.stdout)

        // Installed-Size (KiB) matches the unpacked files; the man page is this build's, gzipped.
        let size = try #require(Int(try field("Installed-Size")))
        let du = try run(["/usr/bin/du", "-sk", "--apparent-size", root]).stdout.split(separator: "\t")[0]
        #expect(abs(size - (Int(du) ?? 0)) <= 8, "Installed-Size \(size), du \(du)")
        let page = try run(["/bin/gzip", "-dc", "\(root)/usr/share/man/man1/isbnscan.1.gz"])
        #expect(page.stdout == (try isbnscan(["help", "--man"])).stdout)

        // lintian (when installed: it is not among make test's packages) finds no error or warning.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") {
            let lintian = try run(["/usr/bin/lintian", "--fail-on", "error,warning", deb])
            #expect(lintian.status == 0, "\(lintian.stdout)\(lintian.stderr)")
        }

        // apt accepts it (a simulation: nothing is installed).
        let apt = try run(["/usr/bin/apt-get", "install", "--simulate", "--no-install-recommends", deb])
        #expect(apt.status == 0, "\(apt.stderr)")
        #expect(apt.stdout.contains("Inst isbnscan (\(ISBNScanCommand.version) "), "\(apt.stdout)")
    }
}
