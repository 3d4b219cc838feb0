// SPDX-License-Identifier: Apache-2.0
import Imaging

/// Reads the digits printed under an EAN-13 — its human-readable interpretation (GS1 General
/// Specifications §5.2.3) — for the ``Arbiter`` to weigh where the bars leave a place in doubt.
///
/// Implemented by the TextReading module (Tesseract), so that Scanning does not depend on an OCR
/// engine; a ``MultiPassDecoder`` without one (``MultiPassDecoder/witness`` `nil`) judges by the
/// bars alone. One per worker (not thread-safe).
public protocol PrintedDigitsWitness: AnyObject {
    /// The 13 digits printed under the symbol whose corners are `quadrilateral`, as read, or `nil`
    /// when they cannot be read (none printed, cut off, too blurred, the OCR engine missing).
    ///
    /// - Parameters:
    ///   - image: 8-bit luminance, upright: the image the symbol was read in.
    ///   - quadrilateral: the symbol's corners in pixels of `image`, in the symbol's own frame:
    ///     top-left, top-right, bottom-right, bottom-left as its bars are read (left to right, the
    ///     digits below).
    func printedDigits(in image: LuminanceImage, quadrilateral: [Point]) -> String?
}

/// The printed digits of the places of one image, each read once: the ``Arbiter`` asks for a
/// place's digits whenever it judges the place in doubt, and one search judges its readings
/// several times (the report of each effort, ``SearchPlan``). A place whose box overlaps a box
/// read before gets that reading (the place grows as passes read more of its bars).
final class PrintedDigitsReadings {
    let witness: any PrintedDigitsWitness
    /// The image read and its scale: readings' boxes are in pixels `scale` times those of `image`.
    let image: LuminanceImage
    let scale: Int
    private var read: [(box: PixelRect, digits: String?)] = []

    init(witness: any PrintedDigitsWitness, image: LuminanceImage, scale: Int = 1) {
        self.witness = witness
        self.image = image
        self.scale = scale
    }

    /// The digits printed under the symbol at `box` (pixels of the full-size image), read in the
    /// direction `orientation` (degrees clockwise, ``Symbol/orientation``).
    func digits(at box: PixelRect, orientation: Int) -> String? {
        if let known = read.first(where: { $0.box.intersection(box) != nil }) { return known.digits }
        let scaled = scale == 1 ? box : box.reduced(by: scale)
        // The box's corners clockwise from the top-left, started at the symbol's own top-left:
        // turned 90° clockwise, the symbol's top-left is the box's top-right.
        let corners = scaled.corners, turn = (orientation / 90) & 3
        let quadrilateral = (0..<4).map { corners[($0 + turn) % 4] }
        let digits = witness.printedDigits(in: image, quadrilateral: quadrilateral)
        read.append((box, digits))
        return digits
    }
}
