// SPDX-License-Identifier: Apache-2.0
@_exported import struct Imaging.Point
@_exported import struct Imaging.PixelRect

/// The barcode symbologies isbnscan reads (GS1 General Specifications §5.2: EAN/UPC).
public enum Symbology: String, Sendable, Hashable, CaseIterable {
    /// EAN-13 (UPC-A arrives here as 13 digits with a leading 0, as zbar reports it).
    case ean13 = "EAN-13"
    /// EAN-8.
    case ean8 = "EAN-8"
    /// 5-digit add-on (on books: the price, e.g. 51299 = US$ 12.99).
    case ean5 = "EAN-5"
    /// 2-digit add-on (periodicals: issue number).
    case ean2 = "EAN-2"
    /// Not a barcode: an ISBN printed as text ("ISBN 0-306-40615-2"), read by OCR (`scan --text`).
    case isbnText = "ISBN text"

    /// Whether this is an add-on, which belongs to the EAN-13 beside it.
    public var isAddOn: Bool { self == .ean5 || self == .ean2 }
}

/// One decoded barcode.
public struct Symbol: Hashable, Sendable {
    /// EAN-13 or EAN-8 (add-ons are attached to their EAN-13 through ``addOn``).
    public var symbology: Symbology
    /// The digits, check digit included (13 for EAN-13, 8 for EAN-8).
    public var data: String
    /// The EAN-2/EAN-5 add-on digits read beside this EAN-13, or `nil`.
    public var addOn: String?
    /// zbar's quality score (`zbar_symbol_get_quality`): how many scan lines agreed; higher is
    /// more reliable, unitless.
    public var quality: Int
    /// The direction the bars are read in, degrees clockwise from left-to-right: 0, 90, 180
    /// or 270 (`zbar_symbol_get_orientation`); `nil` when zbar cannot tell.
    public var orientation: Int?
    /// Where it was read: the box around every point the reader marked, in pixels of the
    /// upright image (or frame); `nil` when the reader marked none.
    public var place: PixelRect?
    /// ``place`` as the quadrilateral of the output: 4 points clockwise from the top-left
    /// (top-left, top-right, bottom-right, bottom-left), or none. Setting it sets ``place`` to
    /// the box around the points.
    public var polygon: [Point] {
        get { place?.corners ?? [] }
        set { place = PixelRect(covering: newValue) }
    }
    /// Which decoding pass found it (``PassName/full`` for the first pass; ``PassName/fit`` for a
    /// code that only the re-measurement of another reading's bars gave, see ``Verification``).
    public var pass: PassName
    /// What measured its digits: the ``Arbiter`` counts the readings of one measurement at one
    /// place once, however many passes made them.
    public var measurement: Measurement
    /// What re-measuring its bars found, or `nil` when it was not re-measured.
    public var verification: Verification?
    /// ``Symbology/isbnText`` only: the line as recognised, e.g. `"ISBN 0-306-40615-2 (pbk.)"`.
    public var printedLine: String?
    /// ``Symbology/isbnText`` only: the qualifier printed after the ISBN, without its parentheses
    /// (`"pbk."`, `"hardcover"`), or `nil`.
    public var qualifier: String?

    public init(symbology: Symbology, data: String, addOn: String? = nil, quality: Int,
                orientation: Int?, place: PixelRect?, pass: PassName = .full) {
        self.symbology = symbology
        self.data = data
        self.addOn = addOn
        self.quality = quality
        self.orientation = orientation
        self.place = place
        self.pass = pass
        measurement = pass == .symbolFit ? .symbolFit : pass == .fit ? .profileFit : .edges
    }

    /// A symbol whose place is the box around `polygon`.
    public init(symbology: Symbology, data: String, addOn: String? = nil, quality: Int,
                orientation: Int?, polygon: [Point], pass: PassName = .full) {
        self.init(symbology: symbology, data: data, addOn: addOn, quality: quality, orientation: orientation,
                  place: PixelRect(covering: polygon), pass: pass)
    }

    /// ``place``, or the pixel at the origin for a symbol without one (so that such symbols
    /// still sort and compare).
    var box: PixelRect { place ?? PixelRect(x: 0, y: 0, width: 1, height: 1) }
}

/// What measures a reading's digits. Two readings by the same measurement of the same bars are
/// one piece of evidence, however the pixels were filtered, scaled, inverted or turned in
/// between: a misread that comes from the bars (ink spread, blur, a damaged character) comes back
/// with every pass. Different measurements err differently, and count apart.
public enum Measurement: String, Sendable, Hashable, CaseIterable {
    /// zbar: the edges of bars and spaces found along scan lines (every zbar pass).
    case edges
    /// ``EANLineDecoder``: each character's four widths on lines averaged across the bars.
    case characterWidths
    /// ``EANTemplateDecoder``: the whole symbol's structure fitted to the profile across the bars.
    case symbolFit
    /// ``ReadingVerifier``'s profile fit (``EANProfileFit``) re-decoding another reading's bars to
    /// a code of its own (``Verification/contradicted(by:lines:)``).
    case profileFit
}
