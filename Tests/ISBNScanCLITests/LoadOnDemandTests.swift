// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// SDL2 (the preview), libheif (HEIF/AVIF), libtiff, SQLite (the catalogue), libcurl, json-c and
/// libxml2 (the lookup) and Tesseract (--text) are opened when first needed, not linked: a scan maps
/// none of them (nor X11's Wayland, audio or video-codec companions, nor libcurl's TLS, Kerberos and
/// LDAP libraries, nor libxml2's ICU), and a machine without them gets a clear error naming the Debian package, only
/// when it uses them.
@Suite struct LoadOnDemandTests {
    @Test func binaryLinksNoOptionalLibrary() throws {
        let ldd = try isbnscan([isbnscanBinary], executable: "/usr/bin/ldd")
        #expect(ldd.status == 0)
        for name in ["libSDL2", "libwayland", "libpulse", "libasound", "libheif", "libx265", "libde265", "libaom", "libdav1d",
                     "libtiff", "libLerc", "libjbig", "libsqlite3", "libcurl", "libjson-c", "libssl", "libgnutls", "libldap", "libkrb5",
                     "libtesseract", "liblept", "libgomp", "libarchive", "libxml2", "libicu"] {
            #expect(!ldd.stdout.contains(name), "\(name) in \(ldd.stdout)")
        }
        #expect(ldd.stdout.contains("libzbar.so.0"))
    }

    /// Runs `isbnscan arguments` with the library `soname` replaced by an empty file (a bind
    /// mount of /dev/null in a private mount namespace), as on a machine without it; `nil`
    /// where mount namespaces are not allowed.
    func withoutLibrary(_ soname: String, _ arguments: [String]) throws -> Run? {
        guard try isbnscan(["-m", "/bin/true"], executable: "/usr/bin/unshare").status == 0 else { return nil }
        let quoted = ([isbnscanBinary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = "library=$(readlink -f \"$(/sbin/ldconfig -p | awk '$1 == \"\(soname)\" { print $NF; exit }')\") "
            + "&& mount --bind /dev/null \"$library\" && exec \(quoted)"
        return try isbnscan(["-m", "/bin/sh", "-c", script], executable: "/usr/bin/unshare")
    }

    @Test func previewWithoutSDLSaysWhichPackage() throws {
        guard let run = try withoutLibrary("libSDL2-2.0.so.0", ["camera", "--preview", "--device", "/dev/isbnscan-none"]) else { return }
        #expect(run.status == 1)
        #expect(run.stdout == "")
        let prefix = "Error: --preview needs libSDL2 (apt install libsdl2-2.0-0): "
        #expect(run.stderr.hasPrefix(prefix) && run.stderr.hasSuffix("file too short\n"), "\(run.stderr)")
        // Everything else still works without SDL.
        let scan = try #require(try withoutLibrary("libSDL2-2.0.so.0", ["scan", "\(testImages)/isbn/png-gray8.png"]))
        #expect(scan.status == 0 && scan.stdout == "9780306406157\n")
    }

    /// `--db` and `catalog` without libsqlite3: an error naming the package; scans without a
    /// catalogue still work.
    @Test func catalogueWithoutSQLiteSaysWhichPackage() throws {
        let folder = NSTemporaryDirectory() + "isbnscan-nosqlite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = folder + "/books.db", png = "\(testImages)/isbn/png-gray8.png"
        guard let run = try withoutLibrary("libsqlite3.so.0", ["scan", "--db", db, png]) else { return }
        #expect(run.status == 1)
        #expect(run.stdout == "")
        let prefix = "Error: \(db): the catalogue needs libsqlite3 (apt install libsqlite3-0): "
        #expect(run.stderr.hasPrefix(prefix) && run.stderr.hasSuffix("file too short\n"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        let scan = try #require(try withoutLibrary("libsqlite3.so.0", ["scan", png]))
        #expect(scan.status == 0 && scan.stdout == "9780306406157\n")
    }

    /// `lookup` without libcurl, json-c or libxml2: an error naming the package, before any request.
    @Test(arguments: [("libcurl.so.4", "libcurl (apt install libcurl4)"), ("libjson-c.so.5", "libjson-c (apt install libjson-c5)"),
                      ("libxml2.so.2", "libxml2 (apt install libxml2)")])
    func lookupWithoutItsLibrariesSaysWhichPackage(soname: String, needs: String) throws {
        guard let run = try withoutLibrary(soname, ["lookup", "9780306406157"]) else { return }
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: the book lookup needs \(needs): ") && run.stderr.hasSuffix("file too short\n"),
                "\(run.stderr)")
    }

    /// A format whose library is missing is an error for its files only; the others are read.
    @Test(arguments: [("libheif.so.1", "formats/heic-gray.heic", "HEIF: HEIF/AVIF images need libheif (apt install libheif1)"),
                      ("libtiff.so.6", "formats/tiff-gray8-lzw.tif", "TIFF: TIFF images need libtiff (apt install libtiff6)")])
    func formatWithoutItsLibraryIsAnErrorForThoseFilesOnly(soname: String, file: String, message: String) throws {
        let image = "\(testImages)/\(file)", png = "\(testImages)/isbn/png-gray8.png"
        guard let run = try withoutLibrary(soname, ["scan", image, png]) else { return }
        #expect(run.status == 1)
        #expect(run.stdout == "\(png): 9780306406157\n")
        #expect(run.stderr.hasPrefix("Error: \(image): unsupported format: \(message): "), "\(run.stderr)")
    }

    /// The libraries the dynamic loader opened for `isbnscan arguments` (LD_DEBUG=files on stderr).
    func loadedLibraries(_ arguments: [String]) throws -> (run: Run, libraries: String) {
        let run = try isbnscan(arguments, environment: ["LD_DEBUG": "files"])
        let libraries = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        return (run, libraries)
    }

    /// Tesseract (with Leptonica and OpenMP) is mapped only when text is read: not for --version,
    /// not for a plain scan, not at thorough for a photo whose barcode is read.
    @Test func tesseractIsOpenedOnlyWhenTextIsRead() throws {
        let png = "\(testImages)/isbn/png-gray8.png", page = "\(testImages)/text/isbn10-hyphenated.png"
        for arguments in [["--version"], ["scan", png], ["scan", "--effort", "thorough", png]] {
            let (run, libraries) = try loadedLibraries(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(libraries.contains("libzbar.so.0"), "\(arguments)")
            #expect(!libraries.contains("libtesseract"), "\(arguments): \(libraries)")
        }
        let (text, libraries) = try loadedLibraries(["scan", "--text", page])
        #expect(text.status == 0 && text.stdout == "9780306406157\n")
        #expect(libraries.contains("file=libtesseract.so.5 [0];  dynamically loaded by"), "\(libraries)")
        // thorough reads text on a photo without any barcode.
        let (thorough, loaded) = try loadedLibraries(["scan", "--effort", "thorough", page])
        #expect(thorough.status == 0 && thorough.stdout == "9780306406157\n")
        #expect(loaded.contains("file=libtesseract.so.5 [0];  dynamically loaded by"))
    }

    @Test func textWithoutTesseractSaysWhichPackage() throws {
        let page = "\(testImages)/text/isbn10-hyphenated.png"
        guard let run = try withoutLibrary("libtesseract.so.5", ["scan", "--text", page]) else { return }
        #expect(run.status == 1)
        #expect(run.stdout == "")
        let prefix = "Error: --text needs libtesseract5 (apt install libtesseract5 tesseract-ocr-eng): "
        #expect(run.stderr.hasPrefix(prefix) && run.stderr.hasSuffix("file too short\n"), "\(run.stderr)")
        // Barcodes are still read without it, at thorough too (a page without a barcode then gives nothing).
        let scan = try #require(try withoutLibrary("libtesseract.so.5", ["scan", "--effort", "thorough", "\(testImages)/isbn/png-gray8.png", page]))
        #expect(scan.status == 0)
        #expect(scan.stdout == "\(testImages)/isbn/png-gray8.png: 9780306406157\n")
    }
}
