// SPDX-License-Identifier: Apache-2.0
import Imaging

extension MultiPassDecoder {
    /// Decodes the image of `source` and scans `region` of it, deciding itself at what size to
    /// look: the file is read once (``ImageSource``), however many decodes it takes.
    ///
    /// A JPEG over ``DecodingPolicy/previewAbovePixels`` (``DecodingPolicy/halfSizeAbovePixels``
    /// when the scanner reads add-ons: the small EAN-5 is often lost at half size) is first
    /// decoded at half size with libjpeg's DCT scaling, a fraction of the cost of a full decode,
    /// for a first look (``firstLook(_:region:scale:everyLine:)``; every line of it only for
    /// images over ``DecodingPolicy/halfSizeAbovePixels``). What that look reads and the fit of
    /// the bars confirms (``ReadingVerifier``) is the answer. When it reads nothing and nothing
    /// in the half-size copy looks like a barcode (``CandidateMap``), the search ends there — at
    /// `fast`, or for a photo over ``DecodingPolicy/fullLookUpToPixels``.
    /// Otherwise the image is decoded again at full size — only the rows around the barcode-like
    /// regions when the search keeps to them (``searchedRows(around:of:region:)``) — and
    /// ``decode(_:region:)`` goes on from what the look found, measuring what it read again. Any other image (and a JPEG decoded
    /// at a reduced scale by ``ImageSource/options``, or one from standard input, which can be
    /// decoded once only) is decoded once, as ``ImageSource/options`` say, and scanned by
    /// ``decode(_:region:)``.
    ///
    /// - Parameters:
    ///   - source: the image file.
    ///   - page: TIFF only: the page (directory) to decode, from 0; `nil`: the page of
    ///     ``ImageSource/options`` (``DecodeOptions/page``, default 0).
    ///   - region: the part scanned (normalized to the upright image).
    /// - Returns: the report (polygons in pixels of the full-size, upright image), the image's
    ///   full size, the file's page count and a damaged file's warning.
    /// - Throws: ``ImageError`` from decoding the file, as ``ImageSource/decode(page:halvingJPEGAbovePixels:rows:)``
    ///   throws it.
    public func decode(_ source: ImageSource, page: Int? = nil, region: RegionOfInterest = .full) throws(ImageError)
        -> SourceReport {
        var halving: Int?
        // Standard input can be read once only: no half-size look that may need a second decode.
        if source.options.jpegScale == 1 && source.canDecodeAgain {
            // With add-ons asked for, only big photos get a half-size look (the small EAN-5 is
            // often lost at half size, and the full decode would follow anyway).
            halving = scanner.options.addOns ? policy.halfSizeAbovePixels : policy.previewAbovePixels
        }
        let preview = try source.decode(page: page, halvingJPEGAbovePixels: halving)
        if preview.scale == 1 { return SourceReport(decode(preview.image, region: region), of: preview) }
        let big = preview.fullSize.width * preview.fullSize.height > policy.halfSizeAbovePixels
        let first = look(preview.image, region: region, scale: preview.scale, everyLine: big)
        let symbols = first.symbols
        var candidates: [Candidate]?
        let rect = region.pixelRect(imageWidth: preview.image.width, imageHeight: preview.image.height)
        // The half-size copy's barcode-like regions: the look's map, else one made now.
        func mapped() -> [Candidate] { first.candidates ?? CandidateMap.find(in: preview.image, within: rect, scale: preview.scale) }
        if let symbols, Arbiter.isConfirmed(symbols) {
            // What the look confirmed is the answer where the half-size copy shows no other
            // barcode-like region: other books' places are searched at full size.
            let found = CandidateMap.canMap(rect) ? mapped() : first.candidates ?? []
            let others = Array(Arbiter.unsettled(found, by: symbols, minimumEvidence: 1, accepting: policy.accepting)
                .prefix(max(0, policy.maximumPlaces)))
            if others.isEmpty {
                let printed = witness.map { PrintedDigitsReadings(witness: $0, image: preview.image, scale: preview.scale) }
                return SourceReport(ScanReport(symbols: symbols, accepting: policy.accepting, printedDigits: printed), of: preview)
            }
            candidates = others
        }
        // Nothing read: where may a barcode be? A photo where nothing looks like one ends here,
        // without the full-size decode (the cost of a photo without a barcode).
        if symbols == nil, CandidateMap.canMap(rect) {
            let found = mapped()
            // Halving averages bars of under 2.5 pixels to grey: beyond `fast`, a photo of up to
            // ``DecodingPolicy/fullLookUpToPixels`` is looked at in full all the same.
            let fullSize = preview.fullSize.width * preview.fullSize.height
            if found.isEmpty, effort == .fast || fullSize > policy.fullLookUpToPixels {
                return SourceReport(ScanReport(symbols: [], accepting: policy.accepting), of: preview)
            }
            candidates = found.isEmpty ? nil : found
        }
        // Something barcode-like, or a reading the fit could not confirm at half size: decode
        // at full size, where what the preview read is measured again. When the search will keep
        // to the areas around the barcode-like regions (after a look at the half-size copy that
        // covered the whole image), only their rows are decoded.
        let rows = big ? candidates.flatMap { searchedRows(around: $0, of: preview, region: region) } : nil
        let decoded = try source.decode(page: page, rows: rows)
        // A photo the half-size map saw nothing in is looked at in full only where halving may
        // have lost its bars: the map is made at full size too.
        let report = decode(decoded.image, region: region, firstLookDone: big, earlier: symbols ?? [], candidates: candidates,
                            mapInFull: symbols == nil && candidates == nil && !big)
        var result = SourceReport(report, of: decoded)
        // Some rows only: damage after the last went unseen, and damage among the rows passed over
        // is placed where the skip began; the half-size decode read the whole file.
        if decoded.decodedRows != nil { result.warning = preview.warning ?? result.warning }
        return result
    }

    /// The rows of the full-size image (as stored in the file) that the search of `candidates`
    /// reads when it keeps to the areas around them (``focusedAreas(_:within:)``, as
    /// ``decode(_:region:firstLookDone:earlier:candidates:)`` decides):
    /// each area's rows and as many again above and below it (plus ``DecodingPolicy/areaMargin``),
    /// where the re-measurement of a reading (``ReadingVerifier``) and the fit of the symbol's
    /// structure may look beyond the area. `nil` (every row) when the search is not so kept, or for
    /// an image that is not a JPEG stored upright (the EXIF orientation would turn the whole image
    /// over, every row of it).
    func searchedRows(around candidates: [Candidate], of preview: DecodedImage, region: RegionOfInterest) -> [Range<Int>]? {
        guard preview.format == .jpeg, preview.orientation == .up, !candidates.isEmpty else { return nil }
        let (width, height) = preview.fullSize
        let rect = region.pixelRect(imageWidth: width, imageHeight: height)
        // Once a code is read, every other place is searched, however many there are: their
        // rows too (up to ``DecodingPolicy/maximumPlaces``), unless together they cover half the image.
        guard let around = focusedAreas(candidates, within: rect, maximum: max(policy.maximumAreas, policy.maximumPlaces))
        else { return nil }
        var rows: [Range<Int>] = []
        for area in around.map(\.rect).sorted(by: { $0.y < $1.y }) {
            let pad = area.height + policy.areaMargin
            let band = max(0, area.y - pad)..<min(height, area.y + area.height + pad)
            if let last = rows.last, last.upperBound >= band.lowerBound {
                rows[rows.count - 1] = last.lowerBound..<max(last.upperBound, band.upperBound)
            } else {
                rows.append(band)
            }
        }
        return rows
    }
}
