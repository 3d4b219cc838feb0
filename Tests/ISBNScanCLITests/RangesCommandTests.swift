// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISBN
@testable import ISBNScanCLI
import Testing
import TestSupport

/// `isbnscan ranges`, `--accept 979`, ISMN refusals, hyphenation in every command.
@Suite struct RangesCommandTests {
    /// A private XDG data folder for one test.
    struct DataHome {
        let path = NSTemporaryDirectory() + "isbnscan-xdg-\(UUID().uuidString)"
        var environment: [String: String] { ["XDG_DATA_HOME": path, "HOME": path + "/home"] }
        var copy: String { path + "/isbnscan/RangeMessage.xml" }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    static let shipped = URL(fileURLWithPath: testImages).deletingLastPathComponent()
        .appendingPathComponent("Sources/ISBN/Resources/RangeMessage.xml").path

    @Test func builtInCopyIsShown() throws {
        let home = DataHome()
        defer { home.remove() }
        let run = try isbnscan(["ranges"], environment: home.environment)
        #expect(run.status == 0)
        #expect(run.stdout == "built-in copy: serial 3b388def-5e30-451d-b9b2-12ca3f141051, Sat, 22 Aug 2026 17:51:37 BST, 287 registration groups\n")
    }

    /// A huge file is refused before it is parsed, and nothing is installed.
    @Test func aHugeRangeMessageIsRefused() throws {
        let home = DataHome()
        defer { home.remove() }
        let huge = home.path + "-huge.xml"
        try (Data("<ISBNRangeMessage>".utf8) + Data(count: 5 << 20)).write(to: URL(fileURLWithPath: huge))
        defer { try? FileManager.default.removeItem(atPath: huge) }
        let update = try isbnscan(["ranges", "update", huge], environment: home.environment)
        #expect(update.status == 1)
        #expect(update.stderr == "Error: \(huge): larger than 4 MiB, which no ISBN range message is (the agency's is about 220 KB)\n")
        #expect(!FileManager.default.fileExists(atPath: home.copy))
    }

    @Test func updateInstallsACheckedCopyAndRefusesAnErrorPage() throws {
        let home = DataHome()
        defer { home.remove() }
        // A newer message: another serial number and date, one agency renamed (to see it is used).
        let newer = try String(contentsOfFile: Self.shipped, encoding: .utf8)
            .replacingOccurrences(of: "3b388def-5e30-451d-b9b2-12ca3f141051", with: "0000aaaa-new")
            .replacingOccurrences(of: "Sat, 22 Aug 2026 17:51:37 BST", with: "Tue, 1 Dec 2026 07:00:00 GMT")
            .replacingOccurrences(of: "<Agency>Japan</Agency>", with: "<Agency>Japan (updated)</Agency>")
        let newerFile = home.path + "-new.xml"
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        try newer.write(toFile: newerFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: newerFile) }
        let update = try isbnscan(["ranges", "update", newerFile], environment: home.environment)
        #expect(update.status == 0)
        #expect(update.stdout == "installed \(home.copy): serial 0000aaaa-new, Tue, 1 Dec 2026 07:00:00 GMT, 287 registration groups\n")
        #expect(try String(contentsOfFile: home.copy, encoding: .utf8) == newer)
        let validate = try isbnscan(["validate", "978-4-87311-903-8"], environment: home.environment)
        #expect(validate.stdout == "978-4-87311-903-8: valid ISBN-13 9784873119038 (ISBN-10 4873119030), 978-4-87311-903-8 (978-4 Japan (updated))\n")

        // The agency's download replaced by an error page: refused, the copy in use kept.
        let page = home.path + "-page.xml"
        try "<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n".write(toFile: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: page) }
        let refused = try isbnscan(["ranges", "update", page], environment: home.environment)
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: \(page): not a usable range message: not an ISBN range message (no ISBNRangeMessage element); the range message in use is unchanged\n")
        #expect(try String(contentsOfFile: home.copy, encoding: .utf8) == newer)
        let shown = try isbnscan(["ranges"], environment: home.environment)
        #expect(shown.stdout == "\(home.copy): serial 0000aaaa-new, Tue, 1 Dec 2026 07:00:00 GMT, 287 registration groups\n")
    }

    /// `ranges update` keeps a compact table beside the message, and later runs read it instead
    /// of the XML; a table not made from the XML as it is now, or damaged, is ignored (the XML
    /// is parsed), and reading never writes.
    @Test func updateKeepsACompactTableThatLaterRunsRead() throws {
        let home = DataHome()
        defer { home.remove() }
        let update = try isbnscan(["ranges", "update", Self.shipped], environment: home.environment)
        #expect(update.status == 0 && update.stderr == "")
        let table = home.path + "/isbnscan/RangeMessage.table"
        let written = try Data(contentsOf: URL(fileURLWithPath: table))
        #expect(written.starts(with: Data(RangesCommand.tableHeader)))
        #expect(written.count < 60_000)

        // A table made from another message for this very XML file: what it says is what is used.
        let shipped = try String(contentsOfFile: Self.shipped, encoding: .utf8)
        let other = try RangeMessage(xml: shipped.replacingOccurrences(of: "<Agency>Japan</Agency>", with: "<Agency>Japan (table)</Agency>"))
        try RangesCommand.writeTable(of: other, for: home.copy)
        let fromTable = try isbnscan(["validate", "978-4-87311-903-8"], environment: home.environment)
        #expect(fromTable.stdout == "978-4-87311-903-8: valid ISBN-13 9784873119038 (ISBN-10 4873119030), 978-4-87311-903-8 (978-4 Japan (table))\n")

        // The XML edited by hand: the table no longer matches it, the XML is parsed, nothing is written.
        let tableBefore = try Data(contentsOf: URL(fileURLWithPath: table))
        try shipped.replacingOccurrences(of: "<Agency>Japan</Agency>", with: "<Agency>Japan (edited)</Agency>")
            .write(toFile: home.copy, atomically: false, encoding: .utf8)
        let edited = try isbnscan(["validate", "978-4-87311-903-8"], environment: home.environment)
        #expect(edited.stdout == "978-4-87311-903-8: valid ISBN-13 9784873119038 (ISBN-10 4873119030), 978-4-87311-903-8 (978-4 Japan (edited))\n")
        #expect(edited.stderr == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: table)) == tableBefore)

        // A damaged table for the XML as it is: ignored without a word.
        let identity = try #require(RangesCommand.identity(of: home.copy))
        try Data(RangesCommand.tableHeader + identity + Array("ISBNRANGES1\n".utf8) + [0xFF, 0xFF]).write(to: URL(fileURLWithPath: table))
        let damaged = try isbnscan(["ranges"], environment: home.environment)
        #expect(damaged.stdout == "\(home.copy): serial 3b388def-5e30-451d-b9b2-12ca3f141051, Sat, 22 Aug 2026 17:51:37 BST, 287 registration groups\n")
        #expect(damaged.stderr == "")
    }

    /// A big message (3.5 MB: the agency's with padding), under the cap: installed with its table,
    /// which is a small fraction of it.
    @Test func aBigRangeMessageIsInstalledWithItsTable() throws {
        let home = DataHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let shipped = try String(contentsOfFile: Self.shipped, encoding: .utf8)
        let padding = "<!-- " + String(repeating: "padding ", count: 3_500_000 / 8) + "-->\n"
        let big = shipped.replacingOccurrences(of: "  <EAN.UCCPrefixes>", with: padding + "  <EAN.UCCPrefixes>")
        #expect(big.utf8.count > 3_500_000 && big.utf8.count < RangesCommand.maxBytes)
        let file = home.path + "-big.xml"
        try big.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let update = try isbnscan(["ranges", "update", file], environment: home.environment)
        #expect(update.status == 0)
        #expect(update.stdout == "installed \(home.copy): serial 3b388def-5e30-451d-b9b2-12ca3f141051, Sat, 22 Aug 2026 17:51:37 BST, 287 registration groups\n")
        let table = try FileManager.default.attributesOfItem(atPath: home.path + "/isbnscan/RangeMessage.table")[.size] as? Int
        #expect(try #require(table) < 60_000)
        let validate = try isbnscan(["validate", "979-10-323-0569-0", "--accept", "979"], environment: home.environment)
        #expect(validate.stdout == "979-10-323-0569-0: valid ISBN-13 9791032305690 (979: no ISBN-10), 979-10-323-0569-0 (979-10 France)\n")
    }

    /// `head -c 200000` of the agency's message: truncated, not "no ISBNRangeMessage element".
    @Test func aTruncatedFileIsRefusedAsTruncated() throws {
        let home = DataHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let cut = home.path + "-cut.xml"
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.shipped)).prefix(200_000)).write(to: URL(fileURLWithPath: cut))
        defer { try? FileManager.default.removeItem(atPath: cut) }
        let run = try isbnscan(["ranges", "update", cut], environment: home.environment)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: \(cut): not a usable range message: truncated: the message ends after 200000 bytes, before its closing </ISBNRangeMessage> tag (an incomplete download); the range message in use is unchanged\n")
        #expect(!FileManager.default.fileExists(atPath: home.copy))
    }

    /// `curl ... | isbnscan ranges update -`.
    @Test func updateReadsStandardInput() throws {
        let home = DataHome()
        defer { home.remove() }
        let update = try isbnscan(["ranges", "update", "-"], stdinFile: Self.shipped, environment: home.environment)
        #expect(update.status == 0)
        #expect(update.stderr == "")
        #expect(update.stdout == "installed \(home.copy): serial 3b388def-5e30-451d-b9b2-12ca3f141051, Sat, 22 Aug 2026 17:51:37 BST, 287 registration groups\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.copy)) == Data(contentsOf: URL(fileURLWithPath: Self.shipped)))
        // An empty standard input is no range message; errors name it.
        let empty = try isbnscan(["ranges", "update", "-"], environment: home.environment)
        #expect(empty.status == 1)
        #expect(empty.stderr == "Error: standard input: not a usable range message: not an ISBN range message (no ISBNRangeMessage element); the range message in use is unchanged\n")
    }

    @Test func aBrokenUserCopyFallsBackWithAWarning() throws {
        let home = DataHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.path + "/isbnscan", withIntermediateDirectories: true)
        try "garbage".write(toFile: home.copy, atomically: true, encoding: .utf8)
        let run = try isbnscan(["ranges"], environment: home.environment)
        #expect(run.stdout.hasPrefix("built-in copy: serial 3b388def"))
        #expect(run.stderr == "Warning: \(home.copy): not an ISBN range message (no ISBNRangeMessage element); using the range message built into isbnscan\n")
    }

    @Test func missingFileAndUsage() throws {
        let missing = try isbnscan(["ranges", "update", "/nonexistent/RangeMessage.xml"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: /nonexistent/RangeMessage.xml: No such file or directory\n")
        let usage = try isbnscan(["ranges", "update"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("Error: update needs one file\n"))
    }

    @Test func accept979OnScanAndValidate() throws {
        let image = "\(testImages)/rejected/isbn979.png"
        let refused = try isbnscan(["scan", image])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("refused, prefix: prefix 979 is not 978: ISBN-13 in the 979 range"))
        let accepted = try isbnscan(["scan", "--accept", "979", "--all", image])
        #expect(accepted.status == 0)
        #expect(accepted.stdout == "EAN-13 9791032305690 accepted 979-10-323-0569-0 (979-10 France)\n")
        let json = try isbnscan(["scan", "--accept", "979", "--json", image])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let isbn = try #require((object["isbns"] as? [[String: Any]])?.first)
        #expect(isbn["isbn13"] as? String == "9791032305690")
        #expect(isbn["isbn10"] is NSNull)
        #expect((isbn["group"] as? [String: Any])?["prefix"] as? String == "979-10")

        let validate = try isbnscan(["validate", "--accept", "979", "979-10-323-0569-0", "979-0-2306-7118-7"])
        #expect(validate.status == 1)
        #expect(validate.stdout == """
            979-10-323-0569-0: valid ISBN-13 9791032305690 (979: no ISBN-10), 979-10-323-0569-0 (979-10 France)
            979-0-2306-7118-7: refused, ismn: prefix 979-0 is an ISMN (printed music), not an ISBN

            """)
        let bad = try isbnscan(["validate", "--accept", "977", "9780306406157"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: --accept '977' is not 979 (978 is always accepted)\n"))
    }

    @Test func ismnIsRefusedWithoutAcceptToo() throws {
        let run = try isbnscan(["validate", "--json", "9790230671187"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(object["reason"] as? String == "ismn")
        #expect(run.status == 1)
    }
}
