// SPDX-License-Identifier: Apache-2.0
/// Why printed ISBNs cannot be read on this machine. Each case names the Debian package to install.
public enum TextReadingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `libtesseract.so.5` could not be opened (dlopen's message).
    case libraryMissing(String)
    /// Tesseract opened, but its English language data (`eng.traineddata`) could not be loaded.
    case languageDataMissing
    /// `TessBaseAPICreate` returned no handle (out of memory).
    case noEngine

    public var description: String {
        switch self {
        case .libraryMissing(let reason): "--text needs libtesseract5 (apt install libtesseract5 tesseract-ocr-eng): \(reason)"
        case .languageDataMissing: "--text needs Tesseract's English data (apt install tesseract-ocr-eng): TessBaseAPIInit3 could not load 'eng'"
        case .noEngine: "--text: TessBaseAPICreate failed (out of memory?)"
        }
    }
}
