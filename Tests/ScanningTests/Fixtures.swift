// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import Scanning

/// Bytes this thread has read from files so far (`rchar` of `/proc/thread-self/io`, which
/// counts `read` and `pread`): a scan runs on the calling thread, so tests running meanwhile
/// on other threads do not count.
func bytesReadByThisThread() throws -> Int {
    let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
    return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
}

/// The corners of a `w`×`h` box at (`x`, `y`), clockwise from top-left.
func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> [Point] {
    [Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x + w, y: y + h), Point(x: x, y: y + h)]
}

/// An EAN-13 reading of `data` by `pass`, at one fixed place (every reading of a test is of one barcode).
func reading(_ data: String, pass: PassName, quality: Int = 10, verification: Verification? = nil) -> Symbol {
    var symbol = Symbol(symbology: .ean13, data: data, quality: quality, orientation: 0, polygon: box(100, 100, 200, 40), pass: pass)
    symbol.verification = verification
    return symbol
}

/// A reading of the line decoder (``EANLineDecoder``): a measurement apart from zbar's edges.
func lineDecoderReading(_ data: String, quality: Int = 10, verification: Verification? = nil) -> Symbol {
    var symbol = reading(data, pass: "lines", quality: quality, verification: verification)
    symbol.measurement = .characterWidths
    return symbol
}
