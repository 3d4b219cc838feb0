// SPDX-License-Identifier: Apache-2.0
internal import CTesseract
import Imaging

/// One line Tesseract recognised: its text and where it is.
struct RecognizedLine: Sendable, Equatable {
    /// UTF-8 text of the line, whitespace at the ends removed.
    var text: String
    /// Tesseract's confidence, 0…100 (0 for a line read with a whitelist: Tesseract 5 gives none then).
    var confidence: Double
    /// Bounding box in pixels of the image recognised: left, top (inclusive), right, bottom (exclusive).
    var box: (left: Int, top: Int, right: Int, bottom: Int)
    /// The baseline from its left end to its right end, pixels of the image recognised.
    var baseline: (x0: Int, y0: Int, x1: Int, y1: Int)

    /// The height of the text in pixels: the box's height less what the baseline's slant adds
    /// (a line photographed a few degrees askew has a taller box), at least 4.
    var textHeight: Double {
        let dx = Double(baseline.x1 - baseline.x0), dy = Double(baseline.y1 - baseline.y0)
        let slope = dx > 0 ? abs(dy / dx) : 0
        return max(4, Double(box.bottom - box.top) - slope * Double(box.right - box.left))
    }

    static func == (a: RecognizedLine, b: RecognizedLine) -> Bool {
        a.text == b.text && a.confidence == b.confidence && a.box == b.box && a.baseline == b.baseline
    }
}

/// Tesseract's two ways of looking at an image here.
enum PageLayout {
    /// Layout analysis of a whole page: blocks, lines (`PSM_AUTO`).
    case page
    /// The image is one block of horizontal text (`PSM_SINGLE_BLOCK`): where the layout
    /// analysis finds no text at all (a few lines of large type, which it takes for a picture).
    case block
    /// The image is one line of text (`PSM_SINGLE_LINE`).
    case singleLine
}

/// One Tesseract engine (`TessBaseAPI`) with the English LSTM model, its only owner.
///
/// Not thread-safe (a `TessBaseAPI` is not): one per worker. The library is opened on the first
/// engine made (``TextReadingError/libraryMissing(_:)`` when it cannot be).
final class TesseractEngine {
    private let api: UnsafePointer<isc_tess_api>
    private let handle: OpaquePointer

    /// - Throws: ``TextReadingError``: the library or its English data is missing.
    init() throws(TextReadingError) {
        var message = [CChar](repeating: 0, count: 512)
        guard let api = isc_tess_load(&message, message.count) else {
            throw .libraryMissing(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let handle = api.pointee.BaseAPICreate() else { throw .noEngine }
        // Tesseract's notes ("Estimating resolution as …", "Empty page!!") go to its debug file,
        // not to isbnscan's stderr.
        _ = api.pointee.BaseAPISetVariable(handle, "debug_file", "/dev/null")
        guard api.pointee.BaseAPIInit3(handle, nil, "eng") == 0 else {
            api.pointee.BaseAPIDelete(handle)
            throw .languageDataMissing
        }
        self.api = api
        self.handle = handle
    }

    deinit {
        api.pointee.BaseAPIEnd(handle)
        api.pointee.BaseAPIDelete(handle)
    }

    /// The lines of `image`, recognised with the characters of `whitelist` only (empty: all).
    ///
    /// Wraps `TessBaseAPISetImage` (which copies the pixels), `TessBaseAPIRecognize` and the
    /// result iterator at `RIL_TEXTLINE`. The resolution is given as 300 ppi: the sizes here are
    /// what matter, and without one Tesseract guesses it.
    func recognize(_ image: LuminanceImage, layout: PageLayout, whitelist: String = "") -> [RecognizedLine] {
        let t = api.pointee
        let mode = switch layout {
        case .page: isc_tess_psm_auto()
        case .block: isc_tess_psm_single_block()
        case .singleLine: isc_tess_psm_single_line()
        }
        t.BaseAPISetPageSegMode(handle, mode)
        _ = t.BaseAPISetVariable(handle, "tessedit_char_whitelist", whitelist)
        image.withUnsafeBytes { bytes in
            t.BaseAPISetImage(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(image.width),
                              Int32(image.height), 1, Int32(image.width))
        }
        t.BaseAPISetSourceResolution(handle, 300)
        defer { t.BaseAPIClear(handle) }
        guard t.BaseAPIRecognize(handle, nil) == 0, let iterator = t.BaseAPIGetIterator(handle) else { return [] }
        defer { t.ResultIteratorDelete(iterator) }
        let level = isc_tess_level_line()
        var lines: [RecognizedLine] = []
        repeat {
            guard let raw = t.ResultIteratorGetUTF8Text(iterator, level) else { continue }
            let text = String(cString: raw)
            t.DeleteText(raw)
            let page = t.ResultIteratorGetPageIteratorConst(iterator)
            var l: Int32 = 0, top: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            guard t.PageIteratorBoundingBox(page, level, &l, &top, &r, &b) != 0 else { continue }
            var x0: Int32 = 0, y0: Int32 = 0, x1: Int32 = 0, y1: Int32 = 0
            if t.PageIteratorBaseline(page, level, &x0, &y0, &x1, &y1) == 0 { (x0, y0, x1, y1) = (l, b, r, b) }
            let trimmed = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            lines.append(RecognizedLine(text: String(trimmed.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()),
                                        confidence: Double(t.ResultIteratorConfidence(iterator, level)),
                                        box: (Int(l), Int(top), Int(r), Int(b)),
                                        baseline: (Int(x0), Int(y0), Int(x1), Int(y1))))
        } while t.ResultIteratorNext(iterator, level) != 0
        return lines
    }
}
