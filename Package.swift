// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// isbnscan — reads book barcodes (EAN-13 / EAN-8, ISBN-13) on Linux with zbar.
import PackageDescription

// libxml2-dev keeps its headers in a folder of their own (`pkg-config --cflags libxml-2.0`); CXML2
// includes them and only opens the library at run time, so the flag is given without pkg-config's
// link flags, to CXML2 and to the Swift modules that import it.
let libxml2Headers = ["-I/usr/include/libxml2"]

// The commit `isbnscan --version` names: ISBNSCAN_COMMIT, which the Makefile sets from `git
// describe` (hex digits, then "-modified" when tracked files differ); anything else is ignored.
// Read from the environment rather than Context.gitInformation, which SwiftPM's manifest cache
// keeps from the first build: a later commit would be built under the old one's name.
let commit: String = {
    let value = Context.environment["ISBNSCAN_COMMIT"] ?? ""
    let hash = value.hasSuffix("-modified") ? value.dropLast("-modified".count) : Substring(value)
    return (1...40).contains(hash.count) && hash.allSatisfy(\.isHexDigit) ? value : ""
}()

let package = Package(
    name: "isbnscan",
    products: [
        .executable(name: "isbnscan", targets: ["isbnscan"]),
        .library(name: "ISBN", targets: ["ISBN"]),
        .library(name: "ISBNScanKit", targets: ["ISBN", "Imaging", "Scanning", "Batch", "Capture", "LiveScan", "Records", "Catalog", "Lookup", "TextReading"]),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config.
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        // Whole-buffer inflate for the common PNG layouts (2-3× zlib's streaming inflate).
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        // C: shared libraries opened on first use (dlopen) for what few runs need: libheif (HEIF/AVIF,
        // with its HEVC and AV1 codecs), libtiff (with libLerc and libjbig) and SDL2 (the preview,
        // with X11, Wayland and audio). Their headers come from libheif-dev, libtiff-dev and
        // libsdl2-dev (make deps); the binary links none of them.
        .target(name: "CLoader"),
        // C shim: libpng (libdeflate for common PNGs)/libjpeg decoding with setjmp kept inside C, EXIF
        // orientation; WebP and GIF through their libraries, TIFF and HEIF through libtiff and libheif
        // opened on the first such file; a strict BMP reader.
        .target(name: "CCodecs", dependencies: ["CPNG", "CDeflate", "CJPEG", "CExif", "CWebP", "CGIF", "CLoader"]),
        // C: libcurl (HTTP(S) for the book lookup: proxies from the environment, the system's CA
        // certificates, HTTP/2) and json-c (Open Library, Google Books answers), opened on the first
        // lookup (headers of libcurl4-openssl-dev and libjson-c-dev).
        .target(name: "CCurl", dependencies: ["CLoader"]),
        .target(name: "CJSON", dependencies: ["CLoader"]),
        // C: libxml2 (NDL Search's RSS, the HTML entity table) for the book lookup, opened on first
        // use (headers of libxml2-dev, which keeps them in their own folder).
        .target(name: "CXML2", dependencies: ["CLoader"], cSettings: [.unsafeFlags(libxml2Headers)]),
        // C: SQLite for the catalogue, opened on the first --db or catalog command (header of libsqlite3-dev).
        .target(name: "CSQLite", dependencies: ["CLoader"]),
        // C: SDL2 for the camera preview window, opened on the first --preview (headers of libsdl2-dev).
        .target(name: "CSDL2", dependencies: ["CLoader"]),
        // C: Tesseract OCR for `scan --text`, opened on first use (headers of libtesseract-dev; the
        // language data comes from tesseract-ocr-eng).
        .target(name: "CTesseract", dependencies: ["CLoader"]),
        // C shim: V4L2 ioctls with fixed arguments, ioctl numbers and fourccs as real symbols.
        // Needs only the Linux headers (linux-libc-dev).
        .target(name: "CV4L2"),
        // C shim: the SIGINT/SIGTERM stop flag and the file removed on a fatal signal (the CLI's);
        // the names of the stop signals, for the CLI's messages and Capture's error text.
        .target(name: "CSignals"),
        // C: the commit the binary was built from (one file, so that a new commit recompiles only it).
        .target(name: "CBuildInfo", cSettings: commit.isEmpty ? [] : [.define("ISBNSCAN_COMMIT", to: "\"\(commit)\"")]),
        // C: the hot loops of CandidateMap on SSE2 vectors (block gradient sums, the bar-length walk's profiles).
        .target(name: "CKernels"),

        // Pure Swift: ISBN-13 / ISBN-10 rules. Depends on nothing.
        // The range message is compiled in from BundledRangeMessage.swift (`make ranges-source`).
        .target(name: "ISBN", exclude: ["Resources"]),
        // 8-bit luminance images, format sniffing, decoding (PNG, JPEG, TIFF, WebP, GIF, HEIF, BMP, PNM), orientation.
        .target(name: "Imaging", dependencies: ["CCodecs"]),
        // zbar wrapper, region of interest, symbols.
        .target(name: "Scanning", dependencies: ["CZBar", "CKernels", "Imaging", "ISBN"]),
        // The output records (file result, symbol, ISBN, refusal, device, frame event), their
        // hand-written JSON (keys in the documented order) and the text, JSON Lines and CSV formatters.
        .target(name: "Records", dependencies: ["ISBN", "Scanning"]),
        // The catalogue: an SQLite file of the files scanned and the ISBNs seen (schema, migrations).
        .target(name: "Catalog", dependencies: ["CSQLite", "ISBN", "Records"]),
        // Book metadata by ISBN from Open Library, Google Books and NDL Search over libcurl:
        // rate limits, retries, the providers' answers parsed into Records' BookMetadata.
        .target(name: "Lookup", dependencies: ["CCurl", "CJSON", "CXML2", "ISBN", "Records"],
                swiftSettings: [.unsafeFlags(libxml2Headers.flatMap { ["-Xcc", $0] })]),
        // ISBNs printed as text ("ISBN 0-306-40615-2") read with Tesseract: lines found, re-read with
        // an ISBN's characters only, judged by the ISBN rules; readings in Scanning's terms.
        .target(name: "TextReading", dependencies: ["CTesseract", "Imaging", "ISBN", "Scanning"]),
        // Folder walking and parallel scanning with results in input order.
        .target(name: "Batch", dependencies: ["Imaging", "Scanning"]),
        // V4L2 capture devices, frames, pixel formats → luminance of a region (Motion-JPEG through
        // Imaging). Depends only on Imaging (the region of interest and pixel rectangle live there),
        // besides the C shims: V4L2's, and CSignals for the names of the stop signals.
        .target(name: "Capture", dependencies: ["CV4L2", "CSignals", "Imaging"]),
        // The camera session: frames in, events out (frame, code read, confirmed, refused, device
        // error); frame scanner and confirmation across frames. Beside Batch, its file twin.
        .target(name: "LiveScan", dependencies: ["Capture", "Imaging", "Scanning", "ISBN"]),
        // The SDL2 preview window: draws a session's events, reports keys; decides nothing.
        .target(name: "Preview", dependencies: ["CSDL2", "LiveScan", "Imaging", "Scanning"]),
        // Argument parsing, commands, output, exit statuses.
        .target(name: "ISBNScanCLI", dependencies: ["ISBN", "Imaging", "Scanning", "Batch", "Capture", "LiveScan", "Preview",
                                                    "Records", "Catalog", "Lookup", "CSignals", "TextReading", "CBuildInfo"]),
        .executableTarget(name: "isbnscan", dependencies: ["ISBNScanCLI"]),

        .testTarget(name: "ISBNTests", dependencies: ["ISBN"]),
        // Shared by the test targets: where TestImages/ and the shared corpus are, the fixture
        // loops' cases, test pictures (out-of-focus symbols).
        .target(name: "TestSupport", dependencies: ["Imaging"], path: "Tests/TestSupport"),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CCodecs", "TestSupport"]),
        .testTarget(name: "ScanningTests", dependencies: ["Scanning", "CKernels", "Imaging", "ISBN", "TestSupport"]),
        .testTarget(name: "TextReadingTests", dependencies: ["TextReading", "Scanning", "Imaging", "ISBN", "TestSupport"]),
        .testTarget(name: "RecordsTests", dependencies: ["Records", "Scanning", "ISBN"]),
        .testTarget(name: "LookupTests", dependencies: ["Lookup", "Records", "ISBN"],
                    swiftSettings: [.unsafeFlags(libxml2Headers.flatMap { ["-Xcc", $0] })]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "ISBN", "Records", "Scanning"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "Scanning", "Imaging", "TestSupport"]),
        // Test support: builds the fake V4L2 device (Tests/FakeV4L2/fakev4l2.c) with cc.
        .target(name: "FakeV4L2", path: "Tests/FakeV4L2", exclude: ["fakev4l2.c", "xclose.c"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "LiveScan", "CV4L2", "CCodecs", "Imaging", "Scanning", "FakeV4L2", "TestSupport"]),
        .testTarget(name: "LiveScanTests", dependencies: ["LiveScan", "Scanning", "Capture", "Imaging", "TestSupport"]),
        .testTarget(name: "PreviewTests", dependencies: ["Preview", "LiveScan", "Capture", "Imaging", "Scanning"]),
        .testTarget(name: "ISBNScanCLITests", dependencies: ["ISBNScanCLI", "isbnscan", "FakeV4L2", "Catalog", "Records", "Scanning", "ISBN",
                                                         "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// `make fuzz` only (ISBNSCAN_FUZZ=1): the libFuzzer target for the Swift decoders and the
// providers' answer parsers, a product of
// its own so the sanitizer flags never touch the normal build. It has no main: libFuzzer's is
// linked in by -sanitize=fuzzer.
if Context.environment["ISBNSCAN_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "isbnscan-fuzz", dependencies: ["Imaging", "Scanning", "ISBN", "Lookup", "Records"],
                                             path: "Sources/ISBNScanFuzz"))
    package.products.append(.executable(name: "isbnscan-fuzz", targets: ["isbnscan-fuzz"]))
}
