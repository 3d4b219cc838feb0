// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import ISBNScanCLI

@Suite struct SuggestionTests {
    @Test(arguments: [("recusive", "recursive", 1), ("catalogue", "catalog", 2), ("lsit", "list", 1), ("", "db", 2),
                      ("abc", "abc", 0), ("kitten", "sitting", 3)])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(Suggestion.distance(a, b) == distance)
        #expect(Suggestion.distance(b, a) == distance)
    }

    @Test func nearestIsWithinAThirdOfTheLength() {
        let names = ["recursive", "rescan", "roi", "json", "jobs"]
        #expect(Suggestion.nearest(to: "recusive", in: names) == "recursive")
        #expect(Suggestion.nearest(to: "rec", in: names) == "recursive")      // the one name it begins
        #expect(Suggestion.nearest(to: "jsn", in: names) == "json")
        #expect(Suggestion.nearest(to: "frobnicate", in: names) == nil)
        #expect(Suggestion.nearest(to: "r", in: names) == nil)                // begins three names
    }

    /// Case is no distance: a value typed in capitals gets its lower-case name, and back.
    @Test func caseIsIgnored() {
        #expect(Suggestion.nearest(to: "CSV", in: ["csv", "jsonl"]) == "csv")
        #expect(Suggestion.nearest(to: "mjpeg", in: ["auto", "YUYV", "MJPG"]) == "MJPG")
        #expect(Suggestion.nearest(to: "REC", in: ["recursive", "rescan"]) == "recursive")
        #expect(Suggestion.nearest(to: "csv", in: ["csv", "jsonl"]) == nil)   // itself is no suggestion
    }

    @Test func aValueNotInItsSetListsTheSetAndTheNearest() {
        #expect(Suggestion.notOneOf("fsat", option: "--effort", choices: ["fast", "normal", "thorough"]).message
                == "--effort 'fsat' is not one of fast, normal, thorough (did you mean 'fast'?)")
        #expect(Suggestion.notOneOf("max", option: "--effort", choices: ["fast", "normal", "thorough"]).message
                == "--effort 'max' is not one of fast, normal, thorough")
        // A newline typed cannot split the error line.
        #expect(Suggestion.notOneOf("fast\nx\u{7}", option: "--effort", choices: ["fast", "normal", "thorough"]).message
                == "--effort 'fast\\nx\\x07' is not one of fast, normal, thorough")
    }
}
