import Foundation
import Testing

/// `scan` on the formats beyond PNG/JPEG/PNM, and the page of a multi-page TIFF in the output.
@Suite struct FormatCommandTests {
    @Test func everyFormatIsReadByTheCommand() throws {
        let folder = "\(testImages)/formats"
        let run = try isbnscan(["scan", "-q", folder])
        #expect(run.status == 0)
        let expected = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasSuffix(".txt") }.map { name in
            let code = try String(contentsOfFile: "\(folder)/\((name as NSString).deletingPathExtension).txt", encoding: .utf8)
            return "\(folder)/\(name): \(code)" + (name == "tiff-multipage.tif" ? " (page 2)" : "")
        }
        #expect(run.stdout == expected.joined(separator: "\n") + "\n")
    }

    @Test func jsonNamesThePageOfEachCode() throws {
        let run = try isbnscan(["scan", "--json", "\(testImages)/formats/tiff-multipage.tif"])
        #expect(run.status == 0)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(record["pages"] as? Int == 2)
        let isbns = try #require(record["isbns"] as? [[String: Any]])
        #expect(isbns.map { $0["isbn13"] as? String } == ["9780321573513"])
        #expect(isbns.map { $0["page"] as? Int } == [2])
        let symbols = try #require(record["symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["page"] as? Int } == [2])
        // A single-page file has no page keys.
        let single = try isbnscan(["scan", "--json", "\(testImages)/formats/tiff-g4.tif"])
        #expect(!single.stdout.contains("\"page"))
    }
}
