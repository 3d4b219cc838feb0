// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// The fixture loops (`@Test(arguments: fixtures(...))`) run one case per image found: a
/// missing or emptied folder would run none and pass. Each folder is counted here.
@Suite struct FixtureFolderTests {
    /// The folders the loops read, with the images each held when this test was written.
    @Test(arguments: [("isbn", 26), ("formats", 16)])
    func everyImageOfAFixtureFolderIsACase(folder: String, atLeast: Int) throws {
        let images = try imageNames(in: folder)
        #expect(images.count >= atLeast, "TestImages/\(folder) holds \(images.count) images")
        // Every image has its .txt, so every one is a case.
        #expect(fixtures(folder).map(\.file) == images.map { "\(folder)/\($0)" })
    }

    @Test func aMissingFolderIsAnErrorNotZeroCases() {
        let folder = "no-such-folder-\(UUID().uuidString)"
        #expect(throws: (any Error).self) { try imageNames(in: folder) }
        #expect(fixtures(folder).isEmpty)
    }
}
