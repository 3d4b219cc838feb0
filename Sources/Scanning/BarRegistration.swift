// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// The lines across a region, each registered to the bars: the profile a region's lines give
/// when the bars are not straight and parallel over all of them.
///
/// A label seen in perspective has bars that converge: lines averaged at one direction smear
/// each bar by the change of its direction times the line's distance from the middle, more at
/// one end of the symbol than at the other. A sheared label's bars end along a slanted edge: the
/// outer lines cross the bars at one end of the symbol and the label or the background beyond
/// their ends at the other, and mix those into the mean. Neither is one direction or one band
/// of lines that ``EANTemplateDecoder/readings(in:around:margin:error:light:middle:registers:)``
/// can choose.
///
/// So each line is compared with the most bar-like group of lines (``reference``), window by
/// window along the profile: in each window it is shifted to where it correlates best with the
/// reference, by less than its distance from it times the tangent of ``maximumTurn`` (a peak at
/// that limit is the slope of a bar further out, and tells nothing), where it correlates at least
/// ``minimumLikeness``. The shifts are fitted by a straight line along the line (a direction that
/// changes steadily along the symbol), fitted again without the windows more than a sample off it
/// (those took a neighbouring bar for their own), and the line is resampled by it. The resampled
/// line is kept in the windows where it is like the reference at that fit; in a window where the
/// reference is flat (a quiet zone, a wide space), as in the nearest window that is not. Lines
/// kept in fewer than a third of the windows are left out.
///
/// The lines on either side of the reference's own (``sides``) are two measurements apart from
/// the lines they were registered to, each the mean of its own pixels.
struct BarRegistration {
    /// A line resampled onto the reference, and for each sample whether it is kept in the mean.
    struct Line {
        /// The line's place among the lines given (0 the first).
        var index: Int
        /// As many as the lines given, in the reference's samples.
        var samples: [Double]
        var kept: [Bool]
    }

    /// The registered lines, in their order across the region (only those that resemble the
    /// reference in enough windows).
    let lines: [Line]
    /// The mean of the most bar-like group of lines, unshifted, in the lines' samples.
    let reference: [Double]
    /// Which of the lines given make the reference.
    let referenceGroup: Range<Int>

    /// How many adjacent lines make the reference.
    static let referenceLines = 4
    /// The mean correlation between adjacent lines of the reference over the region below which
    /// nothing in the region is taken for bars, and no line is registered.
    static let minimumBarLikeness = 0.8
    /// The correlation with the reference, over a window, below which a line is left out of it.
    static let minimumLikeness = 0.7
    /// The largest turn (degrees) of the bars, anywhere along a line, from the perpendicular of
    /// the lines: a line `d` pixels from the reference is searched to `d · tan(maximumTurn)`
    /// samples, and one more.
    static let maximumTurn = 12.0
    /// Windows along the region: each `1 / windowsPerRegion` of it (16 samples at least, a few
    /// bars of the smallest symbol the fit reads), stepped by half a window.
    static let windowsPerRegion = 12

    /// Registers `lines` (profiles of equal length, in order across the bars' length, `spacing`
    /// pixels apart) within the samples `span` of them (the region; the lines may reach past it).
    /// `nil` when the region is under 48 samples (three windows of 16), when no group of lines
    /// looks like bars or the reference is flat everywhere, or when fewer than a quarter of the
    /// lines resemble it.
    init?(_ lines: [[Double]], span: Range<Int>, spacing: Double) {
        guard lines.count >= Self.referenceLines, let count = lines.first?.count else { return nil }
        precondition(lines.allSatisfy { $0.count == count }, "lines of unequal length")
        let lo = max(0, span.lowerBound), hi = min(count, span.upperBound)
        guard hi - lo >= 48 else { return nil }
        let group = Self.referenceLines
        // The most bar-like group: adjacent lines alike over the region (bars are the same along
        // their length; type, a picture or the background are not). Groups are taken from the
        // middle outwards, and one further out only when it is more alike by more than noise
        // (``EANTemplateDecoder/outerUnlikeness``): under converging bars every group is as
        // alike as the next, and the middle one is the mean's own direction.
        let centre = (lines.count - group) / 2
        let last = lines.count - group
        var order = [centre]
        for d in 1...max(1, last) { order += [centre + d, centre - d].filter { $0 >= 0 && $0 <= last } }
        var best = (first: centre, likeness: -Double.infinity)
        for first in order {
            var sum = 0.0
            for k in first..<(first + group - 1) {
                sum += Self.correlation(lines[k], lines[k + 1], lo..<hi, shift: 0)
            }
            let likeness = sum / Double(group - 1)
            if likeness > best.likeness + (best.likeness.isFinite ? EANTemplateDecoder.outerUnlikeness : 0) {
                best = (first, likeness)
            }
        }
        guard best.likeness >= Self.minimumBarLikeness else { return nil }
        var reference = [Double](repeating: 0, count: count)
        for k in best.first..<(best.first + group) {
            for i in 0..<count { reference[i] += lines[k][i] / Double(group) }
        }
        let middle = Double(best.first) + Double(group - 1) / 2
        let width = max(16, (hi - lo) / Self.windowsPerRegion), step = width / 2
        let centres = Array(stride(from: lo + width / 2, through: hi - width / 2, by: step))
        guard centres.count >= 4 else { return nil }

        // Windows where the reference has no structure (a quiet zone, a wide space: under a
        // twentieth of its variance over the region) cannot tell a line's likeness; there a line
        // is kept as in the nearest window that can.
        let regionVariance = Self.variance(reference, lo..<hi)
        let informative = centres.map { Self.variance(reference, ($0 - width / 2)..<($0 + width / 2)) >= regionVariance / 20 }
        guard let firstInformative = informative.firstIndex(of: true) else { return nil }
        let nearestInformative = centres.indices.map { j in
            informative.indices.filter { informative[$0] }.min { abs($0 - j) < abs($1 - j) } ?? firstInformative
        }

        var registered: [Line] = []
        for (k, line) in lines.enumerated() {
            let reach = Int((abs(Double(k) - middle) * spacing * Self.tangent).rounded(.up)) + 1
            // (window centre, shift) where the line correlates with the reference, its peak
            // inside the reach (a peak at its end is the slope of one further out).
            var shifts: [(x: Double, shift: Double)] = []
            for (j, centre) in centres.enumerated() where informative[j] {
                let window = (centre - width / 2)..<(centre + width / 2)
                let scores = (-reach...reach).map { Self.correlation(line, reference, window, shift: $0) }
                guard let peak = scores.indices.max(by: { scores[$0] < scores[$1] }),
                      scores[peak] >= Self.minimumLikeness, peak > 0, peak < scores.count - 1 else { continue }
                // The peak to a fraction of a sample, from the parabola through it and its neighbours.
                let (l, c, r) = (scores[peak - 1], scores[peak], scores[peak + 1])
                let curvature = l - 2 * c + r
                let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / curvature)) : 0
                shifts.append((Double(centre), Double(peak - reach) + offset))
            }
            let enough = max(3, centres.count / 3)
            guard shifts.count >= enough, let first = Self.straightLine(through: shifts) else { continue }
            // A window whose peak lies more than a sample off the line took a neighbouring bar for
            // its own: the line is fitted again without such windows.
            let consistent = shifts.filter { abs($0.shift - (first.a + first.b * $0.x)) <= 1 }
            guard consistent.count >= enough, let (a, b) = Self.straightLine(through: consistent) else { continue }
            var samples = [Double](repeating: 0, count: count)
            for i in 0..<count {
                let x = Double(i) + a + b * Double(i)
                let i0 = min(max(0, Int(x.rounded(.down))), count - 2), f = min(max(x - Double(i0), 0), 1)
                samples[i] = line[i0] * (1 - f) + line[i0 + 1] * f
            }
            // Kept where the line, resampled as fitted, is like the reference.
            let like = centres.indices.map { j in
                informative[j] && Self.correlation(samples, reference, (centres[j] - width / 2)..<(centres[j] + width / 2),
                                                   shift: 0) >= Self.minimumLikeness
            }
            let kept = centres.indices.map { like[nearestInformative[$0]] }
            guard kept.filter({ $0 }).count >= enough else { continue }
            let keeps = (0..<count).map { i in
                // The nearest window decides; beyond the first and last, those.
                kept[min(centres.count - 1, max(0, Int(((Double(i) - Double(centres[0])) / Double(step)).rounded())))]
            }
            registered.append(Line(index: k, samples: samples, kept: keeps))
        }
        guard registered.count * 4 >= lines.count else { return nil }
        self.lines = registered
        self.reference = reference
        self.referenceGroup = best.first..<(best.first + group)
    }

    /// The mean of the registered lines that `include` chooses, sample by sample over those that
    /// keep it (where none does, over all of them), in blocks of `merge` samples as the template
    /// decoder's plain mean: `reference.count / merge` values. Empty when it chooses none.
    func mean(merge: Int, of include: (Line) -> Bool = { _ in true }) -> [Double] {
        let chosen = lines.filter(include)
        guard !chosen.isEmpty, merge >= 1 else { return [] }
        let count = reference.count / merge
        var sum = [Double](repeating: 0, count: count), weight = [Double](repeating: 0, count: count)
        var all = [Double](repeating: 0, count: count)
        for line in chosen {
            for i in 0..<(count * merge) {
                all[i / merge] += line.samples[i]
                if line.kept[i] {
                    sum[i / merge] += line.samples[i]
                    weight[i / merge] += 1
                }
            }
        }
        let every = Double(chosen.count * merge)
        return (0..<count).map { i in weight[i] > 0 ? sum[i] / weight[i] : all[i] / every }
    }

    /// The registered lines on either side of the reference's own (``referenceGroup``): two
    /// measurements of the bars apart from the lines they were registered to.
    var sides: [(Line) -> Bool] {
        let group = referenceGroup
        return [{ $0.index < group.lowerBound }, { $0.index >= group.upperBound }]
    }

    /// `shift = a + b·x` through `points`, least squares; `nil` when their `x` are all one.
    static func straightLine(through points: [(x: Double, shift: Double)]) -> (a: Double, b: Double)? {
        let n = Double(points.count)
        let sx = points.reduce(0) { $0 + $1.x }, sy = points.reduce(0) { $0 + $1.shift }
        let sxx = points.reduce(0) { $0 + $1.x * $1.x }, sxy = points.reduce(0) { $0 + $1.x * $1.shift }
        let determinant = n * sxx - sx * sx
        guard n >= 2, determinant > 0 else { return nil }
        let b = (n * sxy - sx * sy) / determinant
        return ((sy - b * sx) / n, b)
    }

    /// The variance of `values` over `range`.
    static func variance(_ values: [Double], _ range: Range<Int>) -> Double {
        let r = range.clamped(to: 0..<values.count)
        guard r.count > 1 else { return 0 }
        var s = 0.0, ss = 0.0
        for i in r { s += values[i]; ss += values[i] * values[i] }
        let n = Double(r.count)
        return max(0, ss / n - (s / n) * (s / n))
    }

    /// `tan(maximumTurn)`.
    static let tangent = tan(maximumTurn * Double.pi / 180)

    /// The Pearson correlation of `a` shifted by `shift` samples (`a[i + shift]`) with `b[i]`, for
    /// `i` in `window` where both exist; 0 when either is flat there.
    static func correlation(_ a: [Double], _ b: [Double], _ window: Range<Int>, shift: Int) -> Double {
        var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0, n = 0.0
        for i in window {
            let j = i + shift
            guard j >= 0, j < a.count, i >= 0, i < b.count else { continue }
            let x = a[j], y = b[i]
            sa += x; sb += y; saa += x * x; sbb += y * y; sab += x * y; n += 1
        }
        guard n > 2 else { return 0 }
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n
        guard va > 1e-9, vb > 1e-9 else { return 0 }
        return (sab - sa * sb / n) / (va * vb).squareRoot()
    }
}
