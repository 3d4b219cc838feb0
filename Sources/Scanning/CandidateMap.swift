// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import CKernels
import Imaging

/// A place in an image that looks like a barcode: many parallel edges close together.
///
/// Found by ``CandidateMap``; used to decide whether and where the recovery passes run, and
/// reported (``ScanReport/candidates``) when no pass reads a code there, so the user knows
/// where to retake the photo.
public struct Candidate: Sendable, Hashable {
    /// The region, in pixels of the full upright image (origin top-left; x right, y down).
    public var rect: PixelRect
    /// Direction across the bars (of the luminance gradient), in degrees in −90 ..< 90: 0 for
    /// upright bars (a barcode read along rows), ±90 for bars lying flat.
    public var angle: Double
    /// Bars lighter than their surroundings: a negative print (light bars on a dark cover).
    public var inverted: Bool
    /// Blocks of ``CandidateMap/block`` pixels (of the image it was found in) that make it up.
    public var blocks: Int
    /// Coherence of the region's gradients as a whole (0…1): near 1 when all its edges run one way.
    public var coherence: Double
    /// Light/dark transitions on the line across the region that shows the most (an EAN-13 has 60).
    public var edges: Int = 0
    /// Mean distance between neighbouring edges across the bars, in pixels of the full image,
    /// measured on the map's (reduced) image when its edges are at least
    /// ``CandidateMap/judgedSpacing`` of its pixels apart; else `nil` (finer than the map resolves).
    ///
    /// At least the symbol's own spacing: an EAN-13's 59 spacings span 95 modules (1.6 modules
    /// each); where blur or the map's resolution loses its narrowest bars, the spacing measured
    /// is larger, up to 9 modules for a symbol defocused by 3 (blur sweep of `make bench-accuracy`).
    public var edgeSpacing: Double?
    /// Width of its light/dark transitions, in pixels of the full image, measured with
    /// ``edgeSpacing`` (else `nil`): the share of samples on a slope, (Σ|Δ|)² / (n·ΣΔ²) along
    /// the profile across the bars, times the spacing. Sharp print has edges a pixel or two wide,
    /// a fraction of the spacing (type 0.2–0.45 of it); defocused bars are mostly slope (0.37–0.81
    /// of it on the blur sweep, over 0.58 for 95 % of its symbols).
    public var edgeWidth: Double?

    /// Whether its edges are sharp: narrower than ``sharpEdges`` of their spacing (`false` when
    /// not measured). A print in focus, type or bars that zbar sees edge by edge; never a
    /// defocused symbol. It does not say that the narrowest bars were resolved where the region
    /// was mapped: at a reduced scale a symbol's wide bars keep sharp edges while its narrow ones
    /// merge, so ``edgeSpacing`` may still be more than 1.6 modules.
    public var hasSharpEdges: Bool {
        guard let edgeSpacing, let edgeWidth else { return false }
        return edgeWidth < Self.sharpEdges * edgeSpacing
    }
    /// Edge width, as a share of the edge spacing, under which edges are sharp (``hasSharpEdges``).
    public static let sharpEdges = 0.45
    /// Edge width, as a share of the edge spacing, from which edges are as wide as a defocus makes
    /// them: that of 95 % of the defocused symbols of the blur sweep (``edgeWidth``); type, even
    /// when soft, is under it.
    public static let defocusedEdges = 0.58

    /// How much the region looks like an EAN: its coherence, times how close its edge count comes
    /// to an EAN-13's 60 (fewer: part of a symbol or a word; far more: a texture). Candidates are
    /// ranked by it, and a strong one (``isStrong``) is named to the user.
    public var likeness: Double {
        let e = Double(edges)
        return coherence * (e <= 60 ? e / 60 : max(0, 1 - (e - 60) / 120))
    }

    /// Coherent (0.92) with the edges of half a symbol or more (24): what text rarely shows.
    public var isStrong: Bool { coherence >= 0.92 && edges >= 24 }

    /// The candidate found in a copy `factor` times smaller, in pixels of the full image.
    func scaled(by factor: Int) -> Candidate {
        guard factor != 1 else { return self }
        var copy = self
        copy.rect = rect.scaled(by: factor)
        copy.edgeSpacing = edgeSpacing.map { $0 * Double(factor) }
        copy.edgeWidth = edgeWidth.map { $0 * Double(factor) }
        return copy
    }

    /// The region as a quadrilateral clockwise from the top-left corner, in full-image pixels.
    public var polygon: [Point] { rect.corners }
}

/// A cheap map of barcode-likeness: where in an image a barcode may be, before any decoder is
/// paid for.
///
/// The image is cut into blocks of ``block`` pixels. In each, the luminance gradient's structure
/// tensor (sums of gx², gy², gx·gy over every other row) gives the gradient energy and its
/// coherence — 1 when every edge in the block runs the same way, near 0 for text, foliage or
/// noise — and the ratio (Σ|g|)² / (n Σ|g|²) tells many edges (bars a few pixels apart) from a
/// single one (a book's spine, a table edge). A block with enough energy, coherence and edges is
/// barcode-like; 8-connected barcode-like blocks whose directions agree form a candidate, kept
/// when it spans at least two blocks each way, shows ``minimumEdges`` edges on a line across it,
/// and its bars run on along themselves (``barLength(in:around:angle:enough:)``: the strokes of
/// large type do not).
///
/// Cost: one pass over half the rows (``CKernels``' `isc_block_gradient_sums`, on SSE2 vectors:
/// about 0.25 ns per pixel of the image; 1 ns in Swift), then lines across and along each region
/// that passes the block tests (about 0.16 ms per region of type, 77 of them on a 48-megapixel page
/// of text; the profiles of the bar-length walk in C on SSE2 too).
public enum CandidateMap {
    /// Block side in pixels.
    public static let block = 16
    /// Mean squared gradient (levels² per pixel) a block needs: a print with 40 levels of contrast
    /// and bars 3 pixels apart has about 300; the grain of a plain surface under 10.
    public static let minimumEnergy = 20.0
    /// Coherence a block needs (0…1).
    static let minimumCoherence = 0.6
    /// Edge spread a block needs: (Σ|g|)² / (n Σ|g|²), 1 when every sample is on an edge,
    /// about 0.1 for one sharp edge across a 16-pixel block.
    static let minimumSpread = 0.2
    /// Directions of neighbouring blocks of one candidate differ by less than this (degrees).
    static let maximumTurn = 30.0

    struct BlockStats {
        var sxx = 0, syy = 0, sxy = 0, sumAbs = 0, n = 0, luminance = 0
        var energy: Double { n == 0 ? 0 : Double(sxx + syy) / Double(n) }
        var coherence: Double {
            let total = Double(sxx + syy)
            guard total > 0 else { return 0 }
            let d = Double(sxx - syy), c = Double(sxy)
            return (d * d + 4 * c * c).squareRoot() / total
        }
        var spread: Double {
            let total = Double(sxx + syy)
            guard total > 0, n > 0 else { return 0 }
            return Double(sumAbs) * Double(sumAbs) / (Double(n) * total)
        }
        /// Gradient direction in degrees, −90 ..< 90.
        var angle: Double {
            var degrees = 0.5 * atan2Degrees(Double(2 * sxy), Double(sxx - syy))
            if degrees >= 90 { degrees -= 180 }
            return degrees
        }
        var isBarcodeLike: Bool {
            energy >= CandidateMap.minimumEnergy && coherence >= CandidateMap.minimumCoherence
                && spread >= CandidateMap.minimumSpread
        }
    }

    /// Whether a region is big enough for the map to tell anything: 4 blocks each way. (A strip
    /// of a few rows — one scan line of a symbol — is searched without it.)
    public static func canMap(_ rect: PixelRect) -> Bool {
        rect.width >= 4 * block && rect.height >= 4 * block
    }

    /// The candidates in `rect` of `image` (pixels of `image`), most barcode-like first
    /// (``Candidate/likeness``), with their
    /// rectangles mapped to the full image by `scale` (`image` is the picture at 1/`scale` of
    /// its size: a JPEG decoded at half size has scale 2). `defocused`: a map made to find
    /// defocused symbols for the fit of the whole symbol, with ``minimumDefocusedEdges``, the
    /// bars' length judged against the region's width (``minimumDefocusedBarShare``), and a
    /// region coherence of ``minimumCoherence`` where the bars' length is measured and their
    /// edges are as wide as a defocus makes them (``Candidate/defocusedEdges``).
    public static func find(in image: LuminanceImage, within rect: PixelRect? = nil, scale: Int = 1,
                            defocused: Bool = false) -> [Candidate] {
        findReportingEnergy(in: image, within: rect, scale: scale, defocused: defocused).candidates
    }

    /// ``find(in:within:scale:defocused:)``, and the largest mean squared gradient of its blocks
    /// (levels² per pixel; 0 when it has fewer than 2 blocks each way): under a quarter of
    /// ``minimumEnergy``, even a copy at half size, whose gradients are up to twice as steep,
    /// has no block with the energy of a barcode.
    public static func findReportingEnergy(in image: LuminanceImage, within rect: PixelRect? = nil, scale: Int = 1,
                                           defocused: Bool = false) -> (candidates: [Candidate], largestEnergy: Double) {
        let minimumEdges = defocused ? minimumDefocusedEdges : Self.minimumEdges
        let area = rect ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let columns = area.width / block, rows = area.height / block
        guard columns >= 2, rows >= 2 else { return ([], 0) }
        // The blocks' gradient sums, in C on SSE2 vectors (CKernels: the loop of the whole map).
        var sums = [isc_block_sums](repeating: isc_block_sums(), count: columns * rows)
        image.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
            sums.withUnsafeMutableBufferPointer { cells in
                isc_block_gradient_sums(base, Int32(image.width), Int32(image.height), Int32(area.x), Int32(area.y),
                                        Int32(columns), Int32(rows), Int32(block), cells.baseAddress)
            }
        }
        let stats = sums.map {
            BlockStats(sxx: Int($0.sxx), syy: Int($0.syy), sxy: Int($0.sxy), sumAbs: Int($0.sum_abs), n: Int($0.n),
                       luminance: Int($0.luminance))
        }
        let like = stats.map(\.isBarcodeLike)
        // A block inside a wide bar or space has few edges; with the energy and coherence of a
        // barcode it still joins one (so a symbol is not cut into strips), without counting.
        let joins = stats.map { $0.energy >= minimumEnergy && $0.coherence >= minimumCoherence }
        var component = [Int](repeating: -1, count: stats.count)
        var found: [Candidate] = []
        for start in stats.indices where like[start] && component[start] < 0 {
            // Flood fill over barcode-like blocks whose directions agree with their neighbour's.
            var stack = [start], members: [Int] = []
            component[start] = start
            while let k = stack.popLast() {
                members.append(k)
                let (cx, cy) = (k % columns, k / columns)
                for ny in max(0, cy - 1)...min(rows - 1, cy + 1) {
                    for nx in max(0, cx - 1)...min(columns - 1, cx + 1) {
                        let n = ny * columns + nx
                        guard joins[n], component[n] < 0, turn(stats[k].angle, stats[n].angle) < maximumTurn else { continue }
                        component[n] = start
                        stack.append(n)
                    }
                }
            }
            let xs = members.map { $0 % columns }, ys = members.map { $0 / columns }
            let (minX, maxX, minY, maxY) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
            let counted = members.filter { like[$0] }.count
            guard counted >= minimumBlocks, maxX - minX >= 1, maxY - minY >= 1 else { continue }
            var total = BlockStats()
            for k in members {
                total.sxx += stats[k].sxx; total.syy += stats[k].syy; total.sxy += stats[k].sxy
                total.n += stats[k].n; total.luminance += stats[k].luminance
            }
            // Polarity: the blocks around a print on a light label are lighter than the bars' blocks.
            var ringSum = 0, ringCount = 0
            for ny in max(0, minY - 1)...min(rows - 1, maxY + 1) {
                for nx in max(0, minX - 1)...min(columns - 1, maxX + 1) where component[ny * columns + nx] != start {
                    ringSum += stats[ny * columns + nx].luminance
                    ringCount += stats[ny * columns + nx].n
                }
            }
            // Many edges along the gradient: an EAN-13 has 60 (30 bars), an EAN-8 44; the stripes of a
            // paragraph's lines, a shelf's spines or a fence far fewer.
            let box = PixelRect(x: area.x + minX * block, y: area.y + minY * block,
                                width: (maxX - minX + 1) * block, height: (maxY - minY + 1) * block)
            let edges = edgeCount(in: image, around: box, angle: total.angle)
            guard edges >= minimumEdges else { continue }
            // A big region may be less coherent as a whole (a turned symbol, a curved page); so
            // may a defocused symbol, whose blurred ends and digits turn the summed gradient, if
            // its bars are measured and their edges are as wide as a defocus makes them (below).
            let coherent = total.coherence >= minimumRegionCoherence
                || (total.coherence >= minimumCoherence && counted >= 5 * minimumBlocks)
            guard coherent || (defocused && total.coherence >= minimumCoherence) else { continue }
            let inside = Double(total.luminance) / Double(max(1, total.n))
            let around = ringCount > 0 ? Double(ringSum) / Double(ringCount) : inside
            let pixels = PixelRect(x: (area.x + minX * block) * scale, y: (area.y + minY * block) * scale,
                                   width: (maxX - minX + 1) * block * scale, height: (maxY - minY + 1) * block * scale)
            // Type, not bars: strokes that end after a few edge spacings (a page of text at 48
            // megapixels has dozens of such regions, each worth a full-size decode and passes).
            let bars = barLength(in: image, around: box, angle: total.angle, enough: 2 * minimumBarLength)
            if let bars, bars.length < minimumBarLength {
                // Defocused, a symbol shows only its wide bars: few edges, far apart, so its bars
                // measure few spacings however long they are. Their length in pixels against the
                // region's width does not depend on the edges the blur left.
                let radians = total.angle * .pi / 180
                let across = abs(cos(radians)) * Double(box.width) + abs(sin(radians)) * Double(box.height)
                guard defocused, bars.length * bars.spacing >= minimumDefocusedBarShare * across else { continue }
            }
            guard coherent || bars.map({ $0.slope >= Candidate.defocusedEdges }) == true else { continue }
            found.append(Candidate(rect: pixels, angle: total.angle, inverted: inside > around + 12, blocks: counted,
                                   coherence: total.coherence, edges: edges, edgeSpacing: bars.map { $0.spacing * Double(scale) },
                                   edgeWidth: bars.map { $0.slope * $0.spacing * Double(scale) }))
        }
        return (found.sorted { ($0.likeness, $0.blocks) > ($1.likeness, $1.blocks) }, stats.lazy.map(\.energy).max() ?? 0)
    }

    /// The stretches of `image` along its rows (`alongRows`) or along its columns where some
    /// block holds bars that those lines cross: a block with the energy and coherence of a
    /// barcode (``minimumEnergy``, ``minimumCoherence``, the test by which a block joins a
    /// candidate, without the edge count a block inside a wide bar lacks) whose gradient runs
    /// within 45° of the lines. Ranges of pixels along the lines, in order, each a whole number
    /// of blocks (the last block of a side that is no multiple of ``block`` ends at the image's
    /// edge, overlapping its neighbour); empty when nothing there is crossed by bars, and the
    /// image's whole length when it is smaller than 2 × 2 blocks.
    ///
    /// Type, whose edges run every way, is not coherent; a paragraph's lines show their long
    /// top and bottom edges, crossed only by columns. Cost: one pass of
    /// `isc_block_gradient_sums` over every other row (about 0.25 ns per pixel on SSE2).
    public static func barSpans(in image: LuminanceImage, alongRows: Bool) -> [Range<Int>] {
        let length = alongRows ? image.width : image.height
        let columns = image.width / block, rows = image.height / block
        guard columns >= 2, rows >= 2 else { return [0..<length] }
        // Block origins along x and y: the grid, and one more block flush with the far edge.
        func origins(_ count: Int, _ side: Int) -> [Int] {
            var o = (0..<count).map { $0 * block }
            if side % block != 0 { o.append(side - block) }
            return o
        }
        let xs = origins(columns, image.width), ys = origins(rows, image.height)
        var crossed = [Bool](repeating: false, count: alongRows ? xs.count : ys.count)
        var sums = [isc_block_sums](repeating: isc_block_sums(), count: xs.count)
        image.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
            for (j, y) in ys.enumerated() {
                sums.withUnsafeMutableBufferPointer { cells in
                    // The grid's columns in one call, the flush one (if any) in another.
                    isc_block_gradient_sums(base, Int32(image.width), Int32(image.height), 0, Int32(y),
                                            Int32(columns), 1, Int32(block), cells.baseAddress)
                    if xs.count > columns {
                        isc_block_gradient_sums(base, Int32(image.width), Int32(image.height), Int32(xs[columns]), Int32(y),
                                                1, 1, Int32(block), cells.baseAddress! + columns)
                    }
                }
                for i in xs.indices {
                    let c = sums[i]
                    let stats = BlockStats(sxx: Int(c.sxx), syy: Int(c.syy), sxy: Int(c.sxy), sumAbs: Int(c.sum_abs),
                                           n: Int(c.n), luminance: Int(c.luminance))
                    guard stats.energy >= minimumEnergy, stats.coherence >= minimumCoherence,
                          (abs(stats.angle) < 45) == alongRows else { continue }
                    crossed[alongRows ? i : j] = true
                }
            }
        }
        let starts = alongRows ? xs : ys
        var spans: [Range<Int>] = []
        for (k, start) in starts.enumerated() where crossed[k] {
            let span = start..<(start + block)
            if let last = spans.last, last.upperBound >= span.lowerBound {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                spans.append(span)
            }
        }
        return spans
    }

    /// Blocks a candidate needs: an EAN-13 with modules of 1 pixel and bars half as tall as the
    /// symbol is wide covers about 18; a word of text 4 to 8.
    static let minimumBlocks = 8
    /// Coherence of the whole region (its summed tensor): barcodes 0.88–0.99 in photos, blocks of
    /// text 0.6–0.9.
    static let minimumRegionCoherence = 0.8

    /// Edges a candidate must show on some line across it (a blurred EAN-13 loses a few of its 60).
    public static let minimumEdges = 20
    /// ``minimumEdges`` of a map made to find defocused symbols (``MultiPassDecoder``'s coarse
    /// fit): a defocus of 2 modules leaves only the wide bars and spaces of an EAN-13, about a
    /// third of its 60 edges; such a map's regions go to the fit of the whole symbol, which
    /// reads a symbol there or nothing.
    public static let minimumDefocusedEdges = 12
    /// The bars' length, as a share of the region's width across them, that makes a region of a
    /// defocused map bars rather than type when it measures under ``minimumBarLength`` spacings.
    /// An EAN-13 at nominal size has bars 0.73 as long as it is wide (GS1 General
    /// Specifications 5.2.1: 22.85 mm on 31.35 mm); 0.2 leaves room for a truncated symbol and
    /// for a region wider than the symbol. The strokes of a line of type are a few hundredths of
    /// its width.
    public static let minimumDefocusedBarShare = 0.2

    /// Half-width of the moving mean that ``edgeCount(in:around:angle:)`` splits dark from light with.
    static let window = 7
    /// Levels a sample must be beyond the moving mean to switch between dark and light.
    static let hysteresis = 5

    /// The most light/dark transitions on three lines along `angle` (the gradient direction,
    /// degrees) through `box`, extended by half its size each way.
    static func edgeCount(in image: LuminanceImage, around box: PixelRect, angle: Double) -> Int {
        let radians = angle * .pi / 180
        let (dx, dy) = (cos(radians), sin(radians))
        let cx = Double(box.x) + Double(box.width) / 2, cy = Double(box.y) + Double(box.height) / 2
        // Half-length: the box's extent along the direction, plus half of it.
        let extent = abs(dx) * Double(box.width) + abs(dy) * Double(box.height)
        let half = 0.75 * extent
        let across = abs(dy) * Double(box.width) + abs(dx) * Double(box.height)
        var best = 0
        image.withUnsafeBytes { bytes in
            var samples: [UInt8] = []
            for offset in [-0.4, -0.27, -0.13, 0.0, 0.13, 0.27, 0.4] {
                let ox = cx - dy * offset * across, oy = cy + dx * offset * across

                samples.removeAll(keepingCapacity: true)
                var t = -half
                while t <= half {
                    let x = Int(ox + t * dx), y = Int(oy + t * dy)
                    if x >= 0, y >= 0, x < image.width, y < image.height { samples.append(bytes[y * image.width + x]) }
                    t += 1
                }
                guard samples.count > 2 * window + 1 else { continue }
                // Against the mean of the 2·window+1 samples around each one (not one threshold for
                // the whole line: light and contrast change along it), with a hysteresis of
                // `hysteresis` levels so that grain does not count.
                var prefix = [Int](repeating: 0, count: samples.count + 1)
                for (k, value) in samples.enumerated() { prefix[k + 1] = prefix[k] + Int(value) }
                var edges = 0
                var dark: Bool?
                for k in window..<(samples.count - window) {
                    let mean = (prefix[k + window + 1] - prefix[k - window]) / (2 * window + 1)
                    let d = Int(samples[k]) - mean
                    if d < -hysteresis, dark != true { if dark != nil { edges += 1 }; dark = true }
                    if d > hysteresis, dark != false { if dark != nil { edges += 1 }; dark = false }
                }
                best = max(best, edges)
            }
        }
        return best
    }

    /// How far the bars of a candidate run along themselves, in spacings of its edges; that
    /// spacing (pixels of `image`, on the line that gave the length); and the share of that
    /// line's profile on a slope (``Candidate/edgeWidth``) — when its edges are far enough apart
    /// (at least ``judgedSpacing`` pixels) to tell; else `nil`.
    ///
    /// From each of five lines across the middle of `box` (pixels of `image`; `angle` is the
    /// direction across the bars, degrees), the profile across the bars — the mean of 5 parallel
    /// lines, less its moving mean, so that only structure at the scale of the bars counts — is
    /// compared (normalized cross-correlation, best over a small shift) with profiles ever
    /// farther along the bars, half an edge spacing at a time, both ways, until two in a row
    /// differ (correlation under 0.5). The longest of the five runs is the answer, or the first
    /// that reaches `enough` spacings.
    ///
    /// The bars of an EAN are at least a fifth as long as the symbol is wide, about 12 spacings
    /// (it has 59 between its 60 edges); where its finest bars are below the map's resolution the
    /// spacing measured is coarser, and blur shortens the run: the longest run of a symbol
    /// measured 6 spacings or more on every photo of `make bench-accuracy` that was mapped (7 or
    /// more on the blur sweep, defocus up to 3 modules). The strokes of a line of type measure 2–5
    /// (5.5 at most, on the generated pages and covers of `make bench`): an x-height against
    /// letters a few spacings wide. The walk goes in steps of half a spacing.
    static func barLength(in image: LuminanceImage, around box: PixelRect, angle: Double,
                          enough: Double) -> (length: Double, spacing: Double, slope: Double)? {
        let radians = angle * .pi / 180
        let (dx, dy) = (cos(radians), sin(radians))
        let cx = Double(box.x) + Double(box.width) / 2, cy = Double(box.y) + Double(box.height) / 2
        let extent = abs(dx) * Double(box.width) + abs(dy) * Double(box.height)  // across the bars
        let along = abs(dy) * Double(box.width) + abs(dx) * Double(box.height)
        let half = 0.5 * extent
        let count = Int(2 * half) + 1
        guard count > 2 * window + 1 else { return nil }
        // Luminance along the line across the bars at `offset` pixels along them, bilinear.
        let sampler = LineSampler(image: image, cx: cx, cy: cy, dx: dx, dy: dy, half: half, count: count, outside: 128)
        func line(_ offset: Double) -> [Double] { sampler.line(offset) }
        // The sum of the five lines around `offset`, less its moving mean (what is left is the
        // structure at the scale of the bars, not the light and the print around them): the walk's
        // inner loop, in C on SSE2 (CKernels).
        var scratch = [Double](repeating: 0, count: count + 1)
        func profile(_ offset: Double) -> [Double] {
            var out = [Double](repeating: 0, count: count)
            image.withUnsafeBytes { raw in
                guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return }
                scratch.withUnsafeMutableBufferPointer { sums in
                    out.withUnsafeMutableBufferPointer { profile in
                        isc_bar_profile(base, Int32(image.width), Int32(image.height), cx, cy, dx, dy, half, Int32(count),
                                        offset, Int32(window), sums.baseAddress, profile.baseAddress)
                    }
                }
            }
            return out
        }
        // Light/dark transitions against a moving mean, with hysteresis (as edgeCount).
        func edges(_ samples: [Double]) -> Int {
            var edges = 0, sum = 0.0
            var dark: Bool?
            let width = 2 * window + 1
            for j in 0..<width { sum += samples[j] }
            for k in window..<(samples.count - window) {
                if k > window { sum += samples[k + window] - samples[k - window - 1] }
                let d = samples[k] - sum / Double(width)
                if d < -Double(hysteresis), dark != true { if dark != nil { edges += 1 }; dark = true }
                if d > Double(hysteresis), dark != false { if dark != nil { edges += 1 }; dark = false }
            }
            return edges
        }
        func correlation(_ a: [Double], _ b: [Double], maxShift: Int) -> Double {
            var best = -1.0
            for shift in -maxShift...maxShift {
                var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0, m = 0.0
                for i in max(0, -shift)..<min(count, count - shift) {
                    let u = a[i], v = b[i + shift]
                    sa += u; sb += v; saa += u * u; sbb += v * v; sab += u * v; m += 1
                }
                guard m > 8 else { continue }
                let va = saa - sa * sa / m, vb = sbb - sb * sb / m
                guard va > 1, vb > 1 else { continue }
                best = max(best, (sab - sa * sb / m) / (va * vb).squareRoot())
            }
            return best
        }
        // From each of five lines across the middle (one may cross the digits under the bars, or
        // miss a symbol that fills only part of the region), the longest run.
        var best: (length: Double, spacing: Double, slope: Double)?
        for fraction in [0.0, -0.15, 0.15, -0.3, 0.3] {
            let start = fraction * along
            let found = edges(line(start))
            guard found >= minimumJudgedEdges else { continue }
            let spacing = Double(count) / Double(found)
            guard spacing >= judgedSpacing else { return nil }
            let reference = profile(start)
            let step = spacing / 2
            var length = 0.0
            for direction in [-1.0, 1.0] {
                var t = step, misses = 0
                while misses < 2 && length < enough * spacing {
                    // A direction a degree or two off moves the bars along the line as it goes.
                    let shift = 1 + Int(0.05 * t)
                    let cc = correlation(reference, profile(start + direction * t), maxShift: shift)
                    if cc >= 0.5 {
                        misses = 0
                        length += step
                    } else {
                        misses += 1
                    }
                    t += step
                }
            }
            if best == nil || length / spacing > best!.length {
                // The share of the reference profile's samples on a slope: (Σ|Δ|)² / (n·ΣΔ²).
                var sum = 0.0, squares = 0.0
                for k in 1..<count {
                    let d = reference[k] - reference[k - 1]
                    sum += abs(d); squares += d * d
                }
                best = (length / spacing, spacing, squares > 0 ? sum * sum / (Double(count - 1) * squares) : 1)
            }
            if best!.length >= enough { break }
        }
        return best
    }

    /// Edges a line across a candidate needs to be a starting line of ``barLength(in:around:angle:enough:)``.
    static let minimumJudgedEdges = 8

    /// Edge spacing (pixels of the mapped image) under which ``barLength(in:around:angle:enough:)``
    /// does not judge: finer bars, blurred and aliased at that scale, do not correlate from line to
    /// line however long they are.
    static let judgedSpacing = 4.0
    /// Bar length (edge spacings) under which a candidate is type, not bars: 5.5, between the
    /// 5 that most type measures and the 6 the shortest barcode measured (5 until the regions
    /// of large type at 5 were found to cost a 24-megapixel cover 2.3 times the cost of one
    /// with a barcode).
    static let minimumBarLength = 5.5

    /// The smaller angle between two directions given modulo 180°.
    static func turn(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 180)
        return min(d, 180 - d)
    }
}

/// atan2 in degrees without Foundation.
@inline(__always) func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    atan2(y, x) * 180 / .pi
}
