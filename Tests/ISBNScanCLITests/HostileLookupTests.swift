// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// `lookup` against hostile answers from the local provider server: memory stays bounded, and so
/// does what is printed.
@Suite struct HostileLookupTests {
    /// The hostile NDL answers (an entity of 10,000 characters used 10,000 times; 3.9 MB in 250
    /// nested elements; a 3 MB title) and Open Library's 4 MB batch, each through a whole
    /// `lookup`: the process peaks under 100 MB, and what it prints is bounded by the field limits.
    @Test(arguments: [("ndl-entities", "ndl", 1), ("ndl-nested", "ndl", 0), ("long", "ndl", 0),
                      ("long", "openlibrary", 0), ("openlibrary-batch", "openlibrary", 0)])
    func memoryPerParseIsBounded(answer: String, provider: String, status: Int32) throws {
        let server = try ProviderServer("hostile", answer)
        let measured = try isbnscanMeasured(["lookup", "--provider", provider, "978-4-04-893065-9"],
                                            environment: CatalogLookupTests.environment(server.base))
        #expect(measured.run.status == status, "\(measured.run.stderr)")
        #expect(measured.run.stdout.split(separator: "\n").count == 1)
        #expect(measured.run.stdout.utf8.count < 2_000 * 3 + 3 * 10_000 + 100)
        #expect(measured.peak(isUnder: 100_000), "peak \(measured.peakKiB) KiB")
    }
}
