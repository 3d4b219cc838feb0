// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Imaging
import TestSupport

/// Fuzz/regressions (Fuzz/make_regressions.py, and fixed findings of `make fuzz`): each file
/// gives an image or a clear error through every decoder, never a crash.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: testImages).deletingLastPathComponent().appendingPathComponent("Fuzz/regressions").path
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()

    @Test func theCorpusIsThere() {
        #expect(Self.files.count >= 18)
    }

    @Test(arguments: files)
    func eachFileIsAnImageOrAClearError(name: String) throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/\(name)")))
        let outcome = data.withUnsafeBytes { raw in
            Result { () throws(ImageError) in try ImageLoader.decode(raw, path: name, options: DecodeOptions(maxPixels: 4_000_000)) }
        }
        switch outcome {
        case .success(let decoded):
            #expect(decoded.image.width > 0 && decoded.image.height > 0)
        case .failure(let error):
            #expect(error.path == name)
            #expect(error.cause.count > 10, "\(name): '\(error.cause)' is no explanation")
        }
        // The same bytes from a file (PNG and JPEG are streamed from it).
        let fromFile = Result { () throws(ImageError) in
            try ImageLoader.load(path: "\(Self.folder)/\(name)", options: DecodeOptions(maxPixels: 4_000_000))
        }
        if case .failure(let error) = fromFile { #expect(!error.cause.isEmpty) }
    }
}
