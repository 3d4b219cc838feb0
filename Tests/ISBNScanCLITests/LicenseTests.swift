// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// The licence: LICENSE, the SPDX line of every source we wrote, the Debian copyright file in
/// the machine-readable format, and README's word on it.
@Suite struct LicenseTests {
    static let repository = (testImages as NSString).deletingLastPathComponent

    /// Generated from data that is not ours (the ISBN Agency's range message) or drawn as data
    /// (the preview's glyphs): no SPDX line.
    static let generated: Set<String> = ["Sources/ISBN/BundledRangeMessage.swift", "Sources/Preview/BitmapFont.swift"]

    /// The sources we wrote: Swift, C, Python and shell files under the repository's folders,
    /// Package.swift, the Makefile and .ci/run (not .build, nor fuzzing findings).
    static func sources() -> [String] {
        var found = ["Package.swift", "Makefile", ".ci/run"]
        for folder in ["Sources", "Tests", "Bench", "Fuzz", "TestImages", "Packaging"] {
            guard let walk = FileManager.default.enumerator(atPath: "\(repository)/\(folder)") else { continue }
            while let path = walk.nextObject() as? String {
                if path.hasPrefix("findings") || path.contains("__pycache__") { continue }
                if ["swift", "c", "h", "py", "sh"].contains((path as NSString).pathExtension) { found.append("\(folder)/\(path)") }
            }
        }
        return found.sorted()
    }

    @Test func licenseIsTheApacheLicense2() throws {
        let license = try String(contentsOfFile: "\(Self.repository)/LICENSE", encoding: .utf8)
        #expect(license.contains("Apache License\n                           Version 2.0, January 2004\n"))
        #expect(license.contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION"))
        // Debian keeps the same text (base-files).
        if let debian = try? String(contentsOfFile: "/usr/share/common-licenses/Apache-2.0", encoding: .utf8) {
            #expect(license == debian)
        }
    }

    @Test func everySourceWeWroteStartsWithItsSPDXLine() throws {
        let sources = Self.sources()
        #expect(sources.count > 300, "\(sources.count) sources found")
        var missing: [String] = []
        for path in sources {
            let text = try String(contentsOfFile: "\(Self.repository)/\(path)", encoding: .utf8)
            let head = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
            // Line 1, or line 2 after a shebang or the swift-tools-version line.
            let line = head.first.map { $0.hasPrefix("#!") || $0.hasPrefix("// swift-tools-version") } == true ? head.dropFirst().first : head.first
            let comment = ["swift", "c", "h"].contains((path as NSString).pathExtension) ? "//" : "#"
            let has = line == Substring("\(comment) SPDX-License-Identifier: Apache-2.0")
            if has == Self.generated.contains(path) { missing.append(path) }
        }
        #expect(missing.isEmpty, "without the SPDX line, or generated with it: \(missing)")
    }

    /// Packaging/copyright follows Debian's machine-readable format 1.0: a header paragraph,
    /// then Files paragraphs with Copyright and License, every short licence name with its text
    /// there or in a stand-alone License paragraph; the whole is Apache-2.0.
    @Test func debianCopyrightIsMachineReadableAndNamesApache2() throws {
        let text = try String(contentsOfFile: "\(Self.repository)/Packaging/copyright", encoding: .utf8)
        let paragraphs = text.components(separatedBy: "\n\n").map { paragraph in
            // Fields: a name at the line's start; continuation lines start with a space.
            var fields: [(name: String, value: String)] = []
            for line in paragraph.split(separator: "\n", omittingEmptySubsequences: true) {
                if line.hasPrefix(" "), !fields.isEmpty { fields[fields.count - 1].value += "\n" + line; continue }
                let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
                fields.append((parts[0], parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""))
            }
            return fields
        }.filter { !$0.isEmpty }
        let header = try #require(paragraphs.first)
        #expect(header.first?.name == "Format")
        #expect(header.first?.value == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
        #expect(header.contains { $0.name == "Upstream-Name" && $0.value == "isbnscan" })
        let known: Set<String> = ["Format", "Upstream-Name", "Upstream-Contact", "Source", "Disclaimer", "Comment", "License",
                                  "Copyright", "Files"]
        var needed: Set<String> = [], given: Set<String> = []
        for paragraph in paragraphs {
            for field in paragraph { #expect(known.contains(field.name), "unknown field \(field.name)") }
            guard let license = paragraph.first(where: { $0.name == "License" })?.value else { continue }
            let name = String(license.split(separator: "\n")[0])
            if license.contains("\n") { given.insert(name) } else { needed.insert(name) }
            if paragraph.first?.name == "Files" {
                #expect(paragraph.contains { $0.name == "Copyright" && !$0.value.isEmpty })
            } else {
                #expect(paragraph.count == 1, "a stand-alone License paragraph has only its text")
            }
        }
        #expect(needed.subtracting(given).isEmpty, "licences without their text: \(needed.subtracting(given))")
        let all = try #require(paragraphs.first { $0.first?.name == "Files" && $0.first?.value == "*" })
        #expect(all.first { $0.name == "License" }?.value == "Apache-2.0")
    }

    @Test func readmeSaysTheLicenceAndWhyTheLibrariesAllowIt() throws {
        let readme = try String(contentsOfFile: "\(Self.repository)/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Licence\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        #expect(section.contains("[Apache License 2.0](LICENSE)"))
        #expect(section.contains("zbar and libexif (LGPL-2.1+)"))
        #expect(section.contains("the LGPL lets a program under any licence"))
    }
}
