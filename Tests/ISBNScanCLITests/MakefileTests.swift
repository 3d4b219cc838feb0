// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// The Makefile's quick parts, with nothing built: which Debian packages each target installs.
@Suite struct MakefileTests {
    let repository = (testImages as NSString).deletingLastPathComponent

    func make(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        try isbnscan(["--no-print-directory"] + arguments, environment: environment, in: repository, executable: "/usr/bin/make")
    }

    /// make install (through deps) installs what the build and the features need, and none of
    /// the tests' tools; make test (through test-deps) installs both.
    @Test func installNeedsNoTestTool() throws {
        let install = try make(["-n", "install"])
        #expect(install.status == 0, "\(install.stderr)")
        for package in ["libzbar-dev", "libsdl2-dev", "libtesseract-dev", "tesseract-ocr-eng", "binutils"] {
            #expect(install.stdout.contains(" \(package)\""), "make install lacks \(package)")
        }
        let testTools = ["gcc", "util-linux", "zint", "groff-base", "zsh", "fish", "dpkg-dev", "xvfb", "xdotool", "x11-apps",
                         "netpbm", "libx11-dev"]
        for package in testTools { #expect(!install.stdout.contains(" \(package)\""), "make install installs \(package)") }
        let test = try make(["-n", "test"])
        #expect(test.status == 0, "\(test.stderr)")
        for package in testTools + ["libzbar-dev"] { #expect(test.stdout.contains(" \(package)\""), "make test lacks \(package)") }
    }
}
