// SPDX-License-Identifier: Apache-2.0
import ISBN

/// How ``MultiPassDecoder`` decodes (pixels, or a file for ``FileScanner``): the effort, the
/// evidence a recovered code needs, and every size threshold and line count of the decoding
/// strategy, in one place (in the spirit of zxing-cpp's `ReaderOptions`). Each field's default is
/// documented where it is declared.
///
/// The defaults are what `isbnscan scan` uses; ``init(effort:confirmations:)`` changes only the
/// two knobs the command line exposes. "Pixels" are pixels of the full-size, upright image unless
/// a field says otherwise.
public struct DecodingPolicy: Sendable, Equatable {
    /// How hard to try when the first look and the full scan read no EAN-13/EAN-8 (``Effort``).
    /// Default ``Effort/normal``: the recovery passes, without the slow extra rotations and
    /// upscaling of ``Effort/thorough``; `scan --effort` sets it.
    public var effort: Effort

    /// How many recovery passes must agree on a code before it counts (a code read by one pass
    /// only is not trusted: misreads are worse than misses). Default 2, the fewest that can agree;
    /// ``MultiPassDecoder`` raises values under 1 to 1.
    public var confirmations: Int

    /// The GS1 prefixes accepted as ISBNs: 978 (default), or 978 and 979 (`--accept 979`). Part
    /// of the policy so that the search knows what it looks for (a 979 book settles the search
    /// as a 978 one does) and each verdict is reached once, by ``Arbiter``.
    public var accepting: ISBNPrefixes

    /// A JPEG whose full-size image has more pixels than this (width × height of the whole
    /// image, before any region is applied) is first decoded at half size (libjpeg's DCT scaling)
    /// for the first look; it is decoded at full size only when that look does not settle it.
    /// Default 1.5 megapixels: under that the full decode costs little more than the preview, and
    /// a smaller barcode would lose too much at half size. Not used when add-ons are asked for
    /// (``halfSizeAbovePixels`` takes its place then: the small EAN-5 is often lost at half size).
    public var previewAbovePixels = 1_500_000

    /// Beyond ``Effort/fast``, a JPEG of up to this many pixels whose half-size first look found
    /// nothing barcode-like is still looked at in full: halving averages bars of under 2.5
    /// pixels to grey, and a small label in a webcam's still (1920×1080) or a 3-megapixel photo
    /// has such bars. Default 3.2 megapixels (2048×1536); a bigger photo ends at half size, as
    /// its full decode would cost every photo without a barcode more than the few it reads.
    public var fullLookUpToPixels = 3_200_000

    /// Images and areas with more pixels than this get their looks at half size: the first look
    /// of a region of interest (pixels of the region, in the full-size image), the JPEG preview
    /// when add-ons are asked for, whether a JPEG preview also scans every line (pixels of the
    /// whole full-size image), and the crop the recovery passes scan (pixels of the area around a
    /// candidate, or of the whole region). Default 4 megapixels: a 12-megapixel photo is halved, a
    /// barcode the full scan missed there is blurred or noisy and halving smooths it, at a quarter
    /// of the cost of every pass after.
    public var halfSizeAbovePixels = 4_000_000

    /// Regions with at least this many pixels (of the region, in the full-size image) get their
    /// ``CandidateMap`` from a half-size copy. Default 1 megapixel: averaging 2×2 pixels quiets
    /// sensor noise, which breaks up the edges of bars; smaller regions would lose thin bars.
    public var mapAtHalfSizeAbovePixels = 1_000_000

    /// The most barcode-like regions (``CandidateMap``, the most barcode-like first) that the full
    /// scan, the recovery passes and the structure fit look at. Default 4: a book's cover has
    /// one barcode, maybe an add-on and a price sticker; more regions cost time on busy photos.
    /// 0 or more (with 0, a region where something looks like a barcode gets no scan after the
    /// first look's sparse lines; a negative count counts as 0).
    public var maximumAreas = 4

    /// The barcode-like regions that no code read covers (other books of the picture: ``Arbiter``
    /// judges each place on its own) searched once some code is read and settled, the most
    /// barcode-like first. Default 32: a photo of a box of books laid out on a table holds up to
    /// about twenty, and each region costs a scan of its area only until it is settled
    /// (a negative count counts as 0).
    public var maximumPlaces = 32

    /// Lines of the first look's sparse scans: every n-th row and column of the region, n being
    /// its shorter side (pixels of the image looked at: half size when halved) divided by this;
    /// no sparse scan when n would be 1. Default 100: a barcode a tenth of the region tall is still
    /// crossed by 10 lines, and regions under 200 pixels get a scan of every line instead.
    public var firstLookLines = 100

    /// Lines of the recovery passes at ``Effort/normal``: every n-th line of the crop, n being its
    /// shorter side (pixels of the crop, after halving) divided by this (1 when under it).
    /// Default 600: crops over 1200 pixels both ways are scanned on every other line, which still
    /// crosses any barcode a pass can read many times. ``Effort/thorough`` scans every line.
    public var recoveryLines = 600

    /// Lines of the recovery passes around one barcode-like region (below ``Effort/thorough``):
    /// zbar scans across its bars only, every n-th row (or column), n being the crop's height (or
    /// width; pixels of the crop, after halving) divided by this. Default 300: about 300 lines
    /// each way, a tight crop around the barcode needs no more.
    public var focusedRecoveryLines = 300

    /// Pixels added on every side of a barcode-like region, besides half its longer side across
    /// its bars (and on every side when they are turned 15–75°), to make the area the first look,
    /// the full scan and the recovery passes search around it (pixels of the image the region was
    /// found in: half size in a half-size look). Default 32: a region found in part (a symbol cut
    /// by a wide bar, a small one) still gets its quiet zones.
    public var areaMargin = 32

    /// The recovery pass that scans the crop at half size (`half`) runs when the crop's shorter
    /// side is at least this (pixels of the crop, after halving). Default 300: halving a smaller
    /// crop leaves the bars of a barcode that fits in it too thin to read.
    public var halfPassMinimumSide = 300

    /// The recovery pass that scans the crop at a quarter of its size (`quarter`) runs when the
    /// crop's shorter side is at least this (pixels of the crop, after halving). Default 1200: a
    /// barcode big enough to survive a quarter is only found in a crop this large.
    public var quarterPassMinimumSide = 1200

    /// The recovery passes that turn the crop (`rotate±n`, `invert-rotate±n`) halve it first when
    /// it has more pixels than this (pixels of the crop, after halving). Default 2 megapixels: a
    /// barcode big enough to need no upscaling survives halving, and rotation costs per pixel.
    public var rotateAtHalfSizeAbovePixels = 2_000_000

    /// ``Effort/thorough`` only: the recovery pass that scans the crop upscaled 2× (`upscale-2`,
    /// for modules under 2 pixels) runs when the crop has at most this many pixels (after
    /// halving). Default 4 megapixels: the copy is 16 megapixels at most, and a larger crop's
    /// barcode has modules wide enough.
    public var upscaleUpToPixels = 4_000_000

    /// A structure-fit reading (``EANTemplateDecoder``) counts only when the second-best valid
    /// code fits worse by at least this much (sum of squared errors, in units of the fit's noise
    /// variance). Default 40: well clear of the margins random bars reach, so that the fit of a
    /// region that is not an EAN-13 does not produce a code.
    public var templateMargin = 40.0

    /// … and when the fit's error per sample is at most this (squared-contrast units). Default 0.02:
    /// a blurred barcode fits far better; a region of text or a picture fits worse.
    public var templateError = 0.02

    /// Whether the structure fit, when no band of a region's plain lines reads, also reads the
    /// lines registered to its bars (``BarRegistration``: a label in perspective or sheared).
    /// Default `true`. The camera's spare-time recovery turns it off: there it costs every
    /// attempt on a region the plain lines cannot read, so the readings that confirm a book
    /// come fewer frames apart, while the next frames show the book from another angle anyway.
    public var registersBars = true

    /// Whether the structure fit also guesses the symbol's ends where its profile stops changing
    /// (``EANTemplateDecoder/activeStretch(_:center:width:)``), besides the quiet zones' light and
    /// flatness, the dark extent and the region. Default `true`. The camera's spare-time recovery
    /// turns it off: with it, a hand-held book's sequence was sometimes read seconds late, the
    /// frames' readings slow to agree.
    public var guessesActiveStretch = true

    /// The defaults, with the knobs of the command line.
    public init(effort: Effort = .normal, confirmations: Int = 2, accepting prefixes: ISBNPrefixes = .only978) {
        self.effort = effort
        self.confirmations = confirmations
        self.accepting = prefixes
    }

    /// Rows and columns between the lines of the first look's sparse scan of a `width`×`height`
    /// region (see ``firstLookLines``): 1 (no sparse scan) for regions under 2 × that.
    func firstLookStep(width: Int, height: Int) -> Int {
        max(1, min(width, height) / max(1, firstLookLines))
    }
}
