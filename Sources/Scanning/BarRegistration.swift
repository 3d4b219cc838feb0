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
/// reference, by at most its distance from it times the tangent of ``maximumTurn``, and kept only
/// where it correlates at least ``minimumLikeness``. The shifts are fitted by a straight line
/// along the line (a direction that changes steadily along the symbol) and the line is
/// resampled by it. Lines kept in fewer than a third of the windows are left out.
struct BarRegistration {
    /// A line resampled onto the reference, and for each sample whether it is kept in the mean.
    struct Line {
        var samples: [Double]
        var kept: [Bool]
    }

    /// The registered lines, in their order across the region (only those that resemble the
    /// reference in enough windows).
    let lines: [Line]
    /// The mean of the most bar-like group of lines, unshifted: the value of a sample no line keeps.
    let reference: [Double]

    /// How many adjacent lines make the reference.
    static let referenceLines = 4
    /// The mean correlation between adjacent lines of the reference over the region below which
    /// nothing in the region is taken for bars, and no line is registered.
    static let minimumBarLikeness = 0.8
    /// The correlation with the reference, over a window, below which a line is left out of it.
    static let minimumLikeness = 0.7
    /// The largest difference (degrees) between the bars' direction along a line and the
    /// direction the lines were sampled at.
    static let maximumTurn = 12.0
    /// Windows along the region: each is this fraction of the region, stepped by half of it.
    static let windowsPerRegion = 12

    /// Registers `lines` (equal-length profiles, in order across the bars' length, `spacing`
    /// pixels apart) within the samples `span` of them (the region; the lines may reach past it).
    /// `nil` when no group of lines looks like bars, or fewer than a quarter of the lines
    /// resemble them.
    init?(_ lines: [[Double]], span: Range<Int>, spacing: Double) {
        guard lines.count >= Self.referenceLines, let count = lines.first?.count else { return nil }
        let lo = max(0, span.lowerBound), hi = min(count, span.upperBound)
        guard hi - lo >= 48 else { return nil }
        let group = Self.referenceLines
        // The most bar-like group: adjacent lines alike over the region (bars are the same along
        // their length; type, a picture or the background are not). Groups are taken from the
        // middle outwards, and one further out only when it is more alike by more than noise
        // (``EANTemplateDecoder/outerUnlikeness``): under converging bars every group is as
        // alike as the next, and the middle one is the mean's own direction.
        let centre = (lines.count - group) / 2
        let order = (0...(lines.count - group)).sorted { abs($0 - centre) < abs($1 - centre) }
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

        var registered: [Line] = []
        for (k, line) in lines.enumerated() {
            let reach = Int((abs(Double(k) - middle) * spacing * Self.tangent).rounded(.up)) + 1
            // (window centre, shift) for each window the line is kept in.
            var shifts: [(x: Double, shift: Double)] = []
            var kept = [Bool](repeating: false, count: centres.count)
            for (j, centre) in centres.enumerated() {
                let window = (centre - width / 2)..<(centre + width / 2)
                var top = (shift: 0, likeness: -Double.infinity)
                for shift in -reach...reach {
                    let c = Self.correlation(line, reference, window, shift: shift)
                    if c > top.likeness { top = (shift, c) }
                }
                guard top.likeness >= Self.minimumLikeness else { continue }
                // The peak to a fraction of a sample, from the parabola through it and its neighbours.
                let l = Self.correlation(line, reference, window, shift: top.shift - 1)
                let r = Self.correlation(line, reference, window, shift: top.shift + 1)
                let curvature = l - 2 * top.likeness + r
                let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / curvature)) : 0
                shifts.append((Double(centre), Double(top.shift) + offset))
                kept[j] = true
            }
            guard shifts.count >= max(3, centres.count / 3) else { continue }
            // The shift along the line: a + b·x, least squares.
            let n = Double(shifts.count)
            let sx = shifts.reduce(0) { $0 + $1.x }, sy = shifts.reduce(0) { $0 + $1.shift }
            let sxx = shifts.reduce(0) { $0 + $1.x * $1.x }, sxy = shifts.reduce(0) { $0 + $1.x * $1.shift }
            let determinant = n * sxx - sx * sx
            let b = determinant > 0 ? (n * sxy - sx * sy) / determinant : 0, a = (sy - b * sx) / n
            var samples = [Double](repeating: 0, count: count), keeps = [Bool](repeating: false, count: count)
            for i in 0..<count {
                let x = Double(i) + a + b * Double(i)
                let i0 = min(max(0, Int(x.rounded(.down))), count - 2), f = min(max(x - Double(i0), 0), 1)
                samples[i] = line[i0] * (1 - f) + line[i0 + 1] * f
                // The nearest window decides; beyond the first and last, those.
                let j = Int(((Double(i) - Double(centres[0])) / Double(step)).rounded())
                keeps[i] = kept[min(centres.count - 1, max(0, j))]
            }
            registered.append(Line(samples: samples, kept: keeps))
        }
        guard registered.count * 4 >= lines.count else { return nil }
        self.lines = registered
        self.reference = reference
    }

    /// The mean of `lines` (indices into ``lines``) sample by sample over the lines that keep it,
    /// in blocks of `merge` samples (as the template decoder's plain mean).
    func mean(of chosen: Range<Int>, merge: Int) -> [Double] {
        let count = reference.count / merge
        var sum = [Double](repeating: 0, count: count), weight = [Double](repeating: 0, count: count)
        for k in chosen {
            let line = lines[k]
            for i in 0..<(count * merge) where line.kept[i] {
                sum[i / merge] += line.samples[i]
                weight[i / merge] += 1
            }
        }
        return (0..<count).map { i in
            if weight[i] > 0 { return sum[i] / weight[i] }
            var r = 0.0
            for s in (i * merge)..<((i + 1) * merge) { r += reference[s] }
            return r / Double(merge)
        }
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
