// SPDX-License-Identifier: Apache-2.0
import ISBN
import Scanning

/// One EAN symbol (or printed ISBN line) read, with position, decoding pass and verdict:
/// `{"type", "data", "addon", "quality", "orientation", "polygon", "pass", "verdict", "reason"}`,
/// and for a printed ISBN (`"type": "ISBN text"`) `"text"` and, when printed, `"qualifier"`; for an
/// EAN-13 whose bars left its place in doubt, `"printed_digits"` when the digits under it were read.
public struct SymbolRecord: Sendable, Equatable, JSONRecord {
    /// `EAN-13`, `EAN-8`, or `ISBN text` for an ISBN read from its printed line (`scan --text`).
    public var type: String
    /// The digits, check digit included.
    public var data: String
    /// The EAN-5/EAN-2 add-on, or `nil`.
    public var addOn: String?
    /// zbar's quality score (scan lines that agreed; unitless).
    public var quality: Int
    /// Reading direction in degrees clockwise (0, 90, 180, 270), or `nil`.
    public var orientation: Int?
    /// Bounding quadrilateral, 4 points `(x, y)` in pixels of the upright image (or frame),
    /// clockwise from the top-left.
    public var polygon: [Point]
    /// The decoding pass that read it (`full`, `smooth`, `rotate+30`…).
    public var pass: String
    /// The ISBN when accepted (not part of this record's JSON; see ``FileRecord/isbns``).
    public var isbn: ISBNRecord?
    /// The refusal when rejected (its `reason` is this record's JSON `"reason"`).
    public var refusal: RefusalRecord?
    /// The page (from 1) of a multi-page file (TIFF) it was read on; `nil` for a single image
    /// (then not in the JSON).
    public var page: Int?
    /// The Japanese book code this symbol is (`192…`/`191…`), or `nil`; in the JSON as `"jp_book_code"`.
    public var jpBookCode: JapaneseBookCode?
    /// The ISBN whose second row this symbol is, when read beside it (then ``refusal`` is `nil`
    /// and the verdict `jp-book-code`); in the JSON as `"isbn13"`.
    public var pairedISBN: String?
    /// `ISBN text` only: the line as recognised (`"ISBN 0-306-40615-2 (pbk.)"`); in the JSON as `"text"`.
    public var printedLine: String?
    /// `ISBN text` only: the qualifier printed after the ISBN, without parentheses (`"pbk."`), or `nil`.
    public var qualifier: String?
    /// The digits printed under the barcode, when they were read as one more measurement at its
    /// place (``ReadCode/printedDigits``); in the JSON as `"printed_digits"`.
    public var printedDigits: String?

    public init(type: String, data: String, addOn: String?, quality: Int, orientation: Int?, polygon: [Point],
                pass: String, isbn: ISBNRecord?, refusal: RefusalRecord?) {
        self.type = type
        self.data = data
        self.addOn = addOn
        self.quality = quality
        self.orientation = orientation
        self.polygon = polygon
        self.pass = pass
        self.isbn = isbn
        self.refusal = refusal
    }

    /// The record of a code as the scanner reported it (its ISBN hyphenated with `options.ranges`).
    public init(_ code: ReadCode, options: RecordOptions = RecordOptions()) {
        let s = code.symbol
        self.init(type: s.symbology.rawValue, data: s.data, addOn: s.addOn, quality: s.quality,
                  orientation: s.orientation, polygon: s.polygon, pass: s.pass.rawValue,
                  isbn: code.verdict.isbn.map { ISBNRecord($0, addOn: s.addOn, ranges: options.ranges) },
                  refusal: code.verdict.rejection.map { RefusalRecord(code, $0) })
        printedLine = s.printedLine
        qualifier = s.qualifier
        isbn?.qualifier = s.qualifier
        printedDigits = code.printedDigits
    }

    /// `"accepted"` or `"rejected"`.
    public var verdict: String { isbn != nil ? "accepted" : pairedISBN != nil ? "jp-book-code" : "rejected" }

    public var json: JSONValue {
        .object(["type": .string(type), "data": .string(data), "addon": .optional(addOn), "quality": .int(quality),
                 "orientation": .optional(orientation),
                 "polygon": JSONValue(polygon: polygon),
                 "pass": .string(pass), "verdict": .string(verdict), "reason": .optional(refusal?.reason)])
            .adding("page", page.map(JSONValue.int)).adding("isbn13", pairedISBN.map(JSONValue.string))
            .adding("jp_book_code", jpBookCode?.json)
            .adding("text", printedLine.map(JSONValue.string)).adding("qualifier", qualifier.map(JSONValue.string))
            .adding("printed_digits", printedDigits.map(JSONValue.string))
    }
}

extension RefusalRecord {
    /// The refusal of `code`: its detail, followed by what would help (``Remedy/words``).
    public init(_ code: ReadCode, _ rejection: Rejection) {
        self.init(type: code.symbol.symbology.rawValue, data: code.symbol.data, reason: rejection.reason.rawValue,
                  detail: rejection.detail + (rejection.remedy.map { ": " + $0.words } ?? ""), misreadOf: code.misreadOf)
    }
}

extension Remedy {
    /// The advice as the output words it, after the refusal's detail.
    public var words: String {
        switch self {
        case .retakePhoto: return "take the photo again"
        case .retakeOrType: return "take the photo again (sharper, closer) or type the digits printed under the barcode"
        }
    }
}
