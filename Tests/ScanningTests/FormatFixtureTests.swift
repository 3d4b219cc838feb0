// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import Imaging
@testable import Scanning
import TestSupport

/// Every file in TestImages/formats reads to the ISBN in its .txt.
@Suite struct FormatFixtureTests {
    @Test(arguments: fixtures("formats"))
    func everyFormatDecodesToItsISBN(file: String, expected: String) throws {
        let result = FileScanner().scanFile(path: "\(testImages)/\(file)")
        #expect(result.error == nil)
        let report = try #require(result.report)
        #expect(report.isbns.map(\.isbn13) == [expected])
    }

    @Test func theBarcodeOnPage2OfATIFFIsFoundAndItsPageReported() throws {
        let result = FileScanner().scanFile(path: "\(testImages)/formats/tiff-multipage.tif")
        #expect(result.pageCount == 2)
        #expect(result.report?.isbns.map(\.isbn13) == ["9780321573513"])
        #expect(result.codePages == [2])
    }
}
