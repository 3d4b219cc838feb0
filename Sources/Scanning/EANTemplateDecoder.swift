// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import ISBN

/// Reads an EAN-13 from a blurred luminance profile by fitting the whole structure of the symbol
/// to it, instead of finding its edges: what a fixed-focus webcam or a far-away photo gives.
///
/// A defocused lens spreads each point over a disk; across the bars that is a line spread
/// function `L(x) ∝ √(R² − x²)` for a disk of radius `R` pixels, here also widened by the pixel
/// (a box of 1 pixel) and a little softness (a Gaussian of 0.4 pixel). The luminance along a
/// line across the symbol is then `a + b × Σ_k dark_k × ∫_{module k} L(x − u) du`: linear in the
/// modules' darkness. Once one blur radius drops below a module, zbar's edges merge and the
/// narrow bars fade out, yet every module still leaves its trace in the profile.
///
/// The symbol (GS1 General Specifications §5.2.1; ISO/IEC 15420): start guard 101, six symbol
/// characters from set A (L) or B (G) whose pattern of sets encodes the leading digit, centre
/// guard 01010, six from set C (R), end guard 101; 95 modules. With the blur under 3 modules,
/// the luminance between the middles of two neighbouring characters depends on those two
/// characters only (and the guards), so the fit error of the whole line is a sum of terms on
/// neighbouring pairs: a chain, solved exactly by dynamic programming over the characters (as in
/// Gallo & Manduchi, "Reading 1D barcodes with mobile phones using deformable templates", IEEE
/// TPAMI 33(9), 2011), with the weighted digit sum modulo 10 in the state so that only check-digit
/// valid codes come out, once per leading digit. The same tables give, for every character, the
/// best fit with a different digit there (min-marginals): the margin of the reading over the
/// second-best valid code, and a confidence per digit.
///
/// Geometry (where the symbol starts, the module width, how it changes along the symbol under
/// perspective, the blur radius) and the levels `a`, `b` are searched: from the extent of the
/// dark part of the line, over a grid, then refined one coordinate at a time.
enum EANTemplateDecoder {
    /// The levels of a fit: `a` + `b` × darkness.
    struct Levels: Equatable {
        var a: Double, b: Double
    }

    /// A reading from one profile.
    struct Reading: Equatable {
        /// The 13 digits, check digit valid.
        var digits: [UInt8]
        /// Mean squared fit error per sample, in units of the squared bar/space contrast.
        var error: Double
        /// How much worse (sum of squared errors) the best other valid code fits, in units of the
        /// noise variance the fit leaves (its mean squared error): a log-likelihood ratio × 2.
        var margin: Double
        /// Per symbol character (12, the leading digit's parity pattern spread over the first 6),
        /// the same measure for the best fit with another digit there.
        var confidence: [Double]
        /// Where the symbol lies along the profile, its module width and blur.
        var geometry: Geometry
        /// The share of the profile's variance over the fitted range (the symbol and its quiet
        /// zones) that the fit leaves: near 0 for a symbol, near 1 for a flat stretch of paper that
        /// a heavily blurred model fits as well as a constant does.
        var unexplained = 1.0
        /// The levels the fit found: the luminance of the paper and its change under a bar.
        var levels = Levels(a: 0, b: 0)
        /// The valid codes that fit best after ``digits`` at ``geometry``; once
        /// ``checkingRivals(_:of:within:)`` has measured the margin against each at its own
        /// geometry, the codes it measured it against (with the other guesses' codes, or, where it
        /// took a runner-up instead, the code displaced).
        var rivals: [[UInt8]] = []
        /// The codes the searches from the other guesses of where the symbol lies settled on,
        /// where they differ from ``digits``: rivals too, each at the geometry that suits it.
        var otherGuesses: [[UInt8]] = []
        /// Sample position (along the profile) of the symbol's left edge and of its right edge.
        var start: Double { geometry.position(0) }
        var end: Double { geometry.position(95) }
        /// Module width (pixels) and blur radius (pixels) found.
        var module: Double { geometry.module }
        var radius: Double { geometry.blur * geometry.module }
    }

    // MARK: The symbol

    /// `(s + w × d) mod 10` at `[w][s * 10 + d]` for a weighted sum `s`, digit `d` and weight
    /// `w` (1 or 3): the dynamic programme's step, without a division per step.
    static let nextSum: [[Int]] = (0...3).map { w in (0..<100).map { k in (k / 10 + w * (k % 10)) % 10 } }

    /// Module patterns of the digits in sets A (L), B (G) and C (R) (``EANSymbol``).
    static let setA = EANSymbol.modulesA, setB = EANSymbol.modulesB, setC = EANSymbol.modulesC

    /// First module of symbol character `c` (0…11).
    @inline(__always) static func firstModule(_ c: Int) -> Int { EANSymbol.firstModule(c) }
    /// Guard modules: start 0–2, centre 45–49, end 92–94 (1 = bar).
    static let guards = EANSymbol.guards13
    /// Weight of symbol character `c` in the check sum (the leading digit weighs 1).
    @inline(__always) static func weight(_ c: Int) -> Int { c % 2 == 0 ? 3 : 1 }

    // MARK: Blur

    /// The edge response of the blur: the part of the line spread function left of `x`, for a disk
    /// of radius `radius` pixels, a pixel's box and a Gaussian of ``softness`` pixels.
    struct EdgeResponse {
        static let step = 0.05
        let half: Double
        let table: [Double]

        init(radius: Double) {
            let softness = EANTemplateDecoder.softness
            half = radius + 0.5 + 3 * softness + Self.step
            let n = Int((2 * half / Self.step).rounded(.up)) + 1
            // Disk's line spread on the grid, then the pixel box, then the Gaussian.
            var lsf = [Double](repeating: 0, count: n)
            for i in 0..<n {
                let x = -half + Double(i) * Self.step
                lsf[i] = radius < Self.step ? (abs(x) < Self.step / 2 ? 1 : 0) : max(0, radius * radius - x * x).squareRoot()
            }
            func convolve(_ f: [Double], _ kernel: [Double]) -> [Double] {
                let h = kernel.count / 2
                return (0..<f.count).map { i in
                    var s = 0.0
                    for (k, w) in kernel.enumerated() {
                        let j = i + k - h
                        if j >= 0 && j < f.count { s += f[j] * w }
                    }
                    return s
                }
            }
            let box = [Double](repeating: 1, count: Int((1 / Self.step).rounded()) + 1)
            let g = Int((3 * softness / Self.step).rounded())
            let gauss = (-g...g).map { k -> Double in
                let x = Double(k) * Self.step
                return exp(-x * x / (2 * softness * softness))
            }
            var blurred = convolve(convolve(lsf, box), gauss)
            let total = blurred.reduce(0, +)
            var acc = 0.0
            for i in 0..<n { acc += blurred[i] / total; blurred[i] = acc }
            table = blurred
        }

        /// The fraction of the spread left of `x` (pixels from its centre).
        @inline(__always) func callAsFunction(_ x: Double) -> Double {
            if x <= -half { return 0 }
            if x >= half { return 1 }
            let t = (x + half) / Self.step
            let i = Int(t)
            if i + 1 >= table.count { return 1 }
            let f = t - Double(i)
            return table[i] * (1 - f) + table[i + 1] * f
        }
    }

    /// The Gaussian softness (pixels) added to every blur: the lens at its best, JPEG, resampling.
    static let softness = 0.4

    // MARK: Geometry

    struct Geometry: Equatable {
        /// Sample position of the symbol's left edge.
        var x0: Double
        /// Mean module width (pixels).
        var module: Double
        /// Perspective (``EANSymbol/position(_:x0:module:bend:length:)``).
        var bend: Double = 0
        /// Blur radius in modules.
        var blur: Double

        /// Sample position of module boundary `u` (0…95).
        @inline(__always) func position(_ u: Double) -> Double {
            EANSymbol.position(u, x0: x0, module: module, bend: bend, length: 95)
        }
    }

    /// What a geometry and levels give: the best code, its fit and the tables for the margins.
    struct Fit {
        var digits: [UInt8]
        var sse: Double
        var samples: Int
        var a: Double, b: Double
        var secondSSE: Double
        var confidence: [Double]
        /// The valid codes that fit best after ``digits`` at this geometry (with margins only).
        var rivals: [[UInt8]] = []
    }

    /// The fit of the chain at `g` with levels `a`, `b` (levels refitted once by least squares
    /// on the best code, and the chain solved again with them).
    static func fit(_ profile: UnsafeBufferPointer<Double>, _ g: Geometry, levels: (a: Double, b: Double),
                    edges: EdgeCache, refit: Bool = true, margins: Bool = true) -> Fit? {
        var (a, b) = levels
        var best: Fit?
        for round in 0..<(refit ? 2 : 1) {
            guard let f = solve(profile, g, a: a, b: b, edges: edges, margins: margins) else { return best }
            best = f
            guard round == 0, let refit = refitLevels(profile, g, digits: f.digits, edges: edges) else { break }
            (a, b) = refit
            guard b < 0 else { break }
        }
        return best
    }

    /// Module darkness (1 = bar) of the symbol for `digits` (13).
    static func modules(of digits: [UInt8]) -> [UInt8] {
        var m = [UInt8](repeating: 0, count: 95)
        for (k, bar) in guards { m[k] = bar }
        let parity = EANSymbol.parities[Int(digits[0])]
        for c in 0..<12 {
            let d = Int(digits[c + 1])
            let pattern = c < 6 ? (parity[c] ? setB[d] : setA[d]) : setC[d]
            for i in 0..<7 { m[firstModule(c) + i] = pattern[i] }
        }
        return m
    }

    /// Sample range the fit looks at: the symbol and 7 modules of quiet zone each side.
    static func range(_ g: Geometry, count: Int) -> Range<Int> {
        let lo = max(0, Int((g.position(0) - 7 * g.module).rounded(.down)))
        let hi = min(count, Int((g.position(95) + 7 * g.module).rounded(.up)) + 1)
        return lo..<max(lo, hi)
    }

    /// Least-squares levels for `digits` rendered at `g`.
    static func refitLevels(_ profile: UnsafeBufferPointer<Double>, _ g: Geometry, digits: [UInt8],
                            edges: EdgeCache) -> (a: Double, b: Double)? {
        codeFit(profile, g, digits: digits, edges: edges).map { ($0.a, $0.b) }
    }

    /// The fit of the one symbol `digits` encodes, rendered at `g`: its least-squares levels, the
    /// sum of squared errors they leave over the fitted range (``range(_:count:)``) and the number
    /// of samples in that range.
    static func codeFit(_ profile: UnsafeBufferPointer<Double>, _ g: Geometry, digits: [UInt8],
                        edges: EdgeCache) -> (sse: Double, a: Double, b: Double, n: Int)? {
        let m = modules(of: digits)
        let edge = edges.response(radius: g.blur * g.module)
        let r = range(g, count: profile.count)
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, n = 0.0
        let positions = (0...95).map { g.position(Double($0)) }
        for j in r {
            let x = Double(j)
            var dark = 0.0
            let u = (x - g.x0) / g.module
            let k0 = max(0, Int(u - g.blur - 3)), k1 = min(94, Int(u + g.blur + 3))
            if k0 <= k1 {
                for k in k0...k1 where m[k] == 1 { dark += edge(x - positions[k]) - edge(x - positions[k + 1]) }
            }
            let y = profile[j]
            sx += dark; sy += y; sxx += dark * dark; sxy += dark * y; syy += y * y; n += 1
        }
        let det = n * sxx - sx * sx
        guard n > 0, abs(det) > 1e-9 else { return nil }
        let b = (n * sxy - sx * sy) / det, a = (sy - b * sx) / n
        return (max(0, syy - a * sy - b * sxy), a, b, Int(n))
    }

    /// The least mean squared error per sample of the symbol `digits` encodes over geometries
    /// near `g` that `allowed` admits (the search's moves, with their steps, for this one code).
    /// Per sample, because the fitted range moves with the geometry: a sum would favour the
    /// geometries that fit fewer samples (a narrower module, a start off the profile's end).
    static func bestFit(of digits: [UInt8], from g: Geometry, profile: UnsafeBufferPointer<Double>, edges: EdgeCache,
                        allowed: (Geometry) -> Bool) -> (mse: Double, geometry: Geometry) {
        func mse(_ fit: (sse: Double, a: Double, b: Double, n: Int)) -> Double { fit.n > 0 ? fit.sse / Double(fit.n) : .infinity }
        guard var best = codeFit(profile, g, digits: digits, edges: edges).map(mse) else { return (.infinity, g) }
        let found = descend(from: g, steps: [0.5, 0.25, 0.125], module: g.module) { trial in
            guard allowed(trial), let t = codeFit(profile, trial, digits: digits, edges: edges).map(mse), t < best else { return false }
            best = t
            return true
        }
        return (best, found)
    }

    /// Descent one coordinate at a time: at each of `steps` in turn, the moves of
    /// ``moves(step:module:)`` from the geometry reached so far, for at most 4 rounds or until a
    /// round takes none. `take` is offered each trial and says whether it took it (keeping what
    /// it measured there); the geometry last taken is returned.
    static func descend(from start: Geometry, steps: [Double], module: Double, take: (Geometry) -> Bool) -> Geometry {
        var g = start
        for step in steps {
            var improved = true, rounds = 0
            while improved && rounds < 4 {
                improved = false
                rounds += 1
                for move in moves(step: step, module: module) {
                    var trial = g
                    move(&trial)
                    if take(trial) { g = trial; improved = true }
                }
            }
        }
        return g
    }

    /// The search's moves of a geometry at `step`: the start by `step` modules (`module`
    /// pixels), the module by `step` %, the perspective by 0.02 × `step`, the blur by `step`
    /// modules; each way.
    static func moves(step: Double, module: Double) -> [(inout Geometry) -> Void] {
        [{ $0.x0 += step * module }, { $0.x0 -= step * module },
         { $0.module *= 1 + 0.01 * step }, { $0.module *= 1 - 0.01 * step },
         { $0.bend += 0.02 * step }, { $0.bend -= 0.02 * step },
         { $0.blur += step }, { $0.blur -= step }]
    }

    /// Valid codes other than the best whose own best geometry is looked for when the margin of a
    /// reading is measured (``Reading/margin``).
    static let rivalCount = 3

    /// Edge responses by blur radius (pixels, to 0.02), made once per profile's search.
    final class EdgeCache {
        private var cache: [Int: EdgeResponse] = [:]
        func response(radius: Double) -> EdgeResponse {
            let key = Int((radius / 0.02).rounded())
            if let e = cache[key] { return e }
            let e = EdgeResponse(radius: Double(key) * 0.02)
            cache[key] = e
            return e
        }
    }

    /// The chain at fixed geometry and levels: best valid code, its SSE, the second-best valid
    /// code's SSE and the per-character margins.
    /// With `margins` false only the best code and its SSE are found (``Fit/secondSSE`` infinite,
    /// ``Fit/confidence`` empty): what the search of the geometry compares.
    static func solve(_ profile: UnsafeBufferPointer<Double>, _ g: Geometry, a: Double, b: Double, edges: EdgeCache,
                      margins: Bool = true) -> Fit? {
        let r = range(g, count: profile.count)
        guard r.count >= 95, g.module > 0.5 else { return nil }
        let edge = edges.response(radius: g.blur * g.module)
        var positions = [Double](repeating: 0, count: 96)
        for u in 0...95 { positions[u] = g.position(Double(u)) }
        // Region of each sample: 0 = before the middle of character 0 (unary on it), c + 1 = between
        // the middles of characters c and c + 1 (pair), 12 = after the middle of character 11.
        var bounds = [Int](repeating: r.upperBound, count: 14)
        bounds[0] = r.lowerBound
        for c in 0..<12 {
            let middle = (positions[firstModule(c)] + positions[firstModule(c) + 7]) / 2
            bounds[c + 1] = min(r.upperBound, max(bounds[c], Int(middle.rounded(.up))))
        }
        // Residual after the guards: y − a − b × guards.
        var residual = [Double](repeating: 0, count: r.count)
        for j in r {
            let x = Double(j)
            var dark = 0.0
            for (k, bar) in guards where bar == 1 {
                let p0 = positions[k], p1 = positions[k + 1]
                if x - p1 > edge.half || p0 - x > edge.half { continue }
                dark += edge(x - p0) - edge(x - p1)
            }
            residual[j - r.lowerBound] = profile[j] - a - b * dark
        }
        let left = setA + setB  // option o: digit o % 10, set B when o >= 10
        // b × darkness of each option of character c at samples lo..<hi, option-major.
        func contribution(_ c: Int, _ lo: Int, _ hi: Int) -> [Double] {
            let n = hi - lo
            let first = firstModule(c)
            var kernels = [Double](repeating: 0, count: n * 7)
            for s in 0..<n {
                let x = Double(lo + s)
                for i in 0..<7 {
                    let p0 = positions[first + i], p1 = positions[first + i + 1]
                    if x - p1 > edge.half || p0 - x > edge.half { continue }
                    kernels[s * 7 + i] = b * (edge(x - p0) - edge(x - p1))
                }
            }
            let options = c < 6 ? left : setC
            var out = [Double](repeating: 0, count: options.count * n)
            for (o, pattern) in options.enumerated() {
                for s in 0..<n {
                    var sum = 0.0
                    for i in 0..<7 where pattern[i] == 1 { sum += kernels[s * 7 + i] }
                    out[o * n + s] = sum
                }
            }
            return out
        }
        func width(_ c: Int) -> Int { c < 6 ? 20 : 10 }
        func unary(_ c: Int, _ lo: Int, _ hi: Int) -> [Double] {
            let n = hi - lo
            let v = contribution(c, lo, hi)
            return (0..<width(c)).map { o in
                var sum = 0.0
                for s in 0..<n { let d = residual[lo + s - r.lowerBound] - v[o * n + s]; sum += d * d }
                return sum
            }
        }
        let first = unary(0, bounds[0], bounds[1]), last = unary(11, bounds[12], bounds[13])
        var pairs: [[Double]] = []  // pairs[c][o * width(c+1) + o']
        pairs.reserveCapacity(11)
        for c in 0..<11 {
            let lo = bounds[c + 1], hi = bounds[c + 2], n = hi - lo
            let v = contribution(c, lo, hi), w = contribution(c + 1, lo, hi)
            let wv = width(c), ww = width(c + 1)
            var table = [Double](repeating: 0, count: wv * ww)
            residual.withUnsafeBufferPointer { res in
                v.withUnsafeBufferPointer { vs in
                    w.withUnsafeBufferPointer { ws in
                        table.withUnsafeMutableBufferPointer { out in
                            let base = lo - r.lowerBound
                            for o in 0..<wv {
                                for p in 0..<ww {
                                    var sum = 0.0
                                    for s in 0..<n {
                                        let d = res[base + s] - vs[o * n + s] - ws[p * n + s]
                                        sum += d * d
                                    }
                                    out[o * ww + p] = sum
                                }
                            }
                        }
                    }
                }
            }
            pairs.append(table)
        }
        // Option index of digit d at character c for leading digit `lead`.
        func option(_ c: Int, _ d: Int, lead: Int) -> Int {
            c < 6 && EANSymbol.parities[lead][c] ? d + 10 : d
        }
        let inf = Double.infinity
        // The weighted sum's state after a character: (s + weight × d) mod 10, by table.
        let next = Self.nextSum
        var alpha = [Double](repeating: inf, count: 12 * 100)
        var back = [Int](repeating: -1, count: 12 * 100)
        // Forward: alpha[c * 100 + d * 10 + s], s the weighted sum of characters 0…c mod 10. Returns
        // the cost of the best valid code for `lead` and its last key.
        // `forcing` (character, digit): only codes with that digit there.
        func forward(_ lead: Int, forcing: (c: Int, d: Int)? = nil) -> (cost: Double, key: Int) {
            alpha.withUnsafeMutableBufferPointer { alpha in
                back.withUnsafeMutableBufferPointer { back in
                    for i in 0..<alpha.count { alpha[i] = inf }
                    for d in 0..<10 where forcing.map({ $0.c != 0 || $0.d == d }) ?? true {
                        alpha[d * 10 + (weight(0) * d) % 10] = first[option(0, d, lead: lead)]
                    }
                    for c in 1..<12 {
                        let w = width(c)
                        next[weight(c)].withUnsafeBufferPointer { next in
                        pairs[c - 1].withUnsafeBufferPointer { table in
                            var options = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                            withUnsafeMutableBytes(of: &options) { raw in
                                let o = raw.bindMemory(to: Int.self)
                                for d in 0..<10 { o[d] = option(c, d, lead: lead) }
                                let digits = forcing.map { $0.c == c ? $0.d..<($0.d + 1) : 0..<10 } ?? 0..<10
                                for dPrev in 0..<10 {
                                    let row = option(c - 1, dPrev, lead: lead) * w
                                    for s in 0..<10 {
                                        let base = alpha[(c - 1) * 100 + dPrev * 10 + s]
                                        guard base < inf else { continue }
                                        for d in digits {
                                            let cost = base + table[row + o[d]]
                                            let key = c * 100 + d * 10 + next[s * 10 + d]
                                            if cost < alpha[key] { alpha[key] = cost; back[key] = dPrev * 10 + s }
                                        }
                                    }
                                }
                            }
                        }
                        }
                    }
                    // Valid ends: lead + sum ≡ 0 (mod 10).
                    let need = (10 - lead % 10) % 10
                    var endKey = -1, endCost = inf
                    for d in 0..<10 {
                        let key = d * 10 + need
                        let cost = alpha[1100 + key] + last[option(11, d, lead: lead)]
                        if cost < endCost { endCost = cost; endKey = key }
                    }
                    return (endCost, endKey)
                }
            }
        }
        var bestSSE = inf, bestLead = 0, bestKey = -1
        var perLead = [Double](repeating: inf, count: 10)
        for lead in 0..<10 {
            let (cost, key) = forward(lead)
            perLead[lead] = cost
            if cost < bestSSE { bestSSE = cost; bestLead = lead; bestKey = key }
        }
        guard bestSSE < inf else { return nil }
        // The 13 digits of the code the last forward pass (for `lead`) ended at `key` with.
        func code(lead: Int, key end: Int) -> [UInt8] {
            var digits = [UInt8](repeating: 0, count: 12)
            var key = end
            for c in stride(from: 11, through: 0, by: -1) {
                digits[c] = UInt8(key / 10)
                if c > 0 { key = back[c * 100 + key] }
            }
            return [UInt8(lead)] + digits
        }
        // The best lead's tables again (the last forward pass was another lead's, unless it was 9).
        if bestLead != 9 { _ = forward(bestLead) }
        let bestDigits = code(lead: bestLead, key: bestKey)
        guard margins else {
            return Fit(digits: bestDigits, sse: bestSSE, samples: r.count, a: a, b: b, secondSSE: inf, confidence: [])
        }
        // Backward: beta[c * 100 + d * 10 + t]: cost of pairs c…10 and the end given character
        // c is d, with the weighted sum of characters c+1…11 ≡ t.
        let lead = bestLead, need = (10 - lead % 10) % 10
        var beta = [Double](repeating: inf, count: 12 * 100)
        for d in 0..<10 { beta[1100 + d * 10] = last[option(11, d, lead: lead)] }
        for c in stride(from: 10, through: 0, by: -1) {
            let w = width(c + 1)
            let table = pairs[c]
            for d in 0..<10 {
                let o = option(c, d, lead: lead)
                for dNext in 0..<10 {
                    let pair = table[o * w + option(c + 1, dNext, lead: lead)]
                    let add = (weight(c + 1) * dNext) % 10
                    for t in 0..<10 {
                        let rest = beta[(c + 1) * 100 + dNext * 10 + t]
                        guard rest < inf else { continue }
                        let key = c * 100 + d * 10 + (t + add) % 10
                        beta[key] = min(beta[key], pair + rest)
                    }
                }
            }
        }
        let marginals = (0..<12).map { c in
            (0..<10).map { d in
                var m = inf
                for s in 0..<10 {
                    let t = ((need - s) % 10 + 10) % 10
                    m = min(m, alpha[c * 100 + d * 10 + s] + beta[c * 100 + d * 10 + t])
                }
                return m
            }
        }
        var second = inf
        for lead in 0..<10 where lead != bestLead { second = min(second, perLead[lead]) }
        var confidence = [Double](repeating: inf, count: 12)
        var alternatives: [(cost: Double, c: Int, d: Int)] = []
        for c in 0..<12 {
            for d in 0..<10 where d != Int(bestDigits[c + 1]) {
                confidence[c] = min(confidence[c], marginals[c][d] - bestSSE)
                second = min(second, marginals[c][d])
                alternatives.append((marginals[c][d], c, d))
            }
        }
        // The valid codes that fit best after the best one, here: each best code with another digit
        // at one of the places where another digit costs least (a code differs from another valid
        // one in two digits at least, so these are the runners-up), and the best code of another
        // leading digit.
        var rivals: [(sse: Double, digits: [UInt8])] = []
        for alternative in alternatives.sorted(by: { $0.cost < $1.cost }) where alternative.cost < inf {
            guard rivals.count < Self.rivalCount else { break }
            let (cost, key) = forward(bestLead, forcing: (alternative.c, alternative.d))
            guard cost < inf else { continue }
            let digits = code(lead: bestLead, key: key)
            if !rivals.contains(where: { $0.digits == digits }) { rivals.append((cost, digits)) }
        }
        if let other = (0..<10).filter({ $0 != bestLead && perLead[$0] < inf }).min(by: { perLead[$0] < perLead[$1] }) {
            let (cost, key) = forward(other)
            rivals.append((cost, code(lead: other, key: key)))
        }
        return Fit(digits: bestDigits, sse: bestSSE, samples: r.count, a: a, b: b, secondSSE: second, confidence: confidence,
                   rivals: rivals.map(\.digits))
    }

    // MARK: One profile

    /// Blur radii (modules) the search starts from.
    static let radii = [0.4, 1.2, 2.0, 2.8]

    /// Decodes the EAN-13 the profile `samples` crosses (luminance along a line across the bars,
    /// e.g. the mean of a band of parallel lines), or `nil` when no code fits well.
    ///
    /// - Parameters:
    ///   - from: a geometry to refine (another band of the same symbol) instead of searching.
    ///   - maximumError: a best fit on the search grid worse than this (squared-contrast units) is
    ///     not refined: no symbol there.
    ///   - around: where the symbol is thought to be along the profile (its centre and width in
    ///     samples, e.g. the barcode-like region's), or `nil` to take the longest dark stretch.
    ///   - activeStretch: whether ``activeStretch(_:center:width:)`` is one of the guesses.
    static func decode(_ samples: [Double], from known: Geometry? = nil, around: (center: Double, width: Double)? = nil,
                       maximumError: Double = .infinity, activeStretch guessesActive: Bool = true) -> Reading? {
        guard samples.count >= 120 else { return nil }
        if let known { return decode(samples, start: known.position(0), end: known.position(95), known: known, maximumError: maximumError).first }
        // Where the symbol lies is guessed five ways, each of which a blur can mislead: the inner
        // edges of the quiet zones by their lightness (a stretch of thin bars, blurred, can look
        // like one) and by their flatness (a low-contrast label's), the longest dark stretch
        // (takes in the blur, or the cover next to a label), the barcode-like region itself
        // (found in blocks), and the stretch where the profile changes between two still ones
        // (a quiet zone shortened by the blur and a halo can look like a wide space). Each guess
        // starts a search; the fit leaving the least is the reading.
        var guesses: [(Double, Double)] = []
        if let around { guesses += quietZones(samples, center: around.center, width: around.width) }
        if let e = extent(samples) { guesses.append(e) }
        if let around, let q = flatZones(samples, center: around.center, width: around.width) { guesses.append(q) }
        if let around { guesses.append((around.center - around.width / 2, around.center + around.width / 2)) }
        if guessesActive, let around, let a = activeStretch(samples, center: around.center, width: around.width) {
            guesses.append(a)
        }
        var best: Reading?
        var others: [[UInt8]] = []
        var tried: [(Double, Double)] = []
        for (start, end) in guesses {
            let module = (end - start) / 95
            // A guess within a module of one already tried at both ends starts the same search.
            if tried.contains(where: { abs($0.0 - start) < max(1, module) && abs($0.1 - end) < max(1, module) }) { continue }
            tried.append((start, end))
            for r in decode(samples, start: start, end: end, known: nil, within: around, maximumError: maximumError) {
                if !others.contains(r.digits) { others.append(r.digits) }
                if best == nil || r.unexplained < best!.unexplained { best = r }
            }
        }
        // Two guesses that settle on different codes are where the bars lie between them.
        guard var reading = best else { return nil }
        reading.otherGuesses = others.filter { $0 != reading.digits }
        return reading
    }

    /// The largest blur radius (modules) a fit may take: beyond it the bars of an EAN-13 leave too
    /// little of their pattern to be read, and a fit there is a flat stretch of paper taken for a
    /// symbol blurred away.
    static let maximumBlur = 3.0

    /// The search for the symbol from a guess of its ends (`start`, `end`: sample positions), or
    /// the refinement of `known`: the reading from the best point of a grid of ends and blurs
    /// seen straight on, and — when one of the symbol's tilts (``bends``) at that point fits the
    /// profile better still — the reading refined from that tilted geometry too, as a second
    /// guess. A label seen in perspective has modules that widen steadily from one end to the
    /// other (in a close photo of a tilted book, by a fifth of the mean each way), which the
    /// descent's small steps cannot reach from a straight start; but a strong blur is also fitted a little better by a tilt that shifts
    /// one code's edges onto another's, so the tilted start never replaces the straight one:
    /// both are refined, and the caller takes the fit that leaves the least and keeps the other
    /// code as a rival.
    static func decode(_ samples: [Double], start: Double, end: Double, known: Geometry?,
                       within around: (center: Double, width: Double)? = nil, maximumError: Double) -> [Reading] {
        return samples.withUnsafeBufferPointer { profile -> [Reading] in
            let module0 = (end - start) / 95
            guard module0 >= 0.8 else { return [] }
            let levels0 = initialLevels(profile, start: start, end: end)
            guard levels0.b < 0 else { return [] }
            let edges = EdgeCache()
            func score(_ g: Geometry, levels: (a: Double, b: Double), refit: Bool = true) -> Fit? {
                guard admits(g, count: profile.count, within: around) else { return nil }
                return fit(profile, g, levels: levels, edges: edges, refit: refit, margins: false)
            }
            var starts: [(Geometry, Fit)] = []
            if let known {
                guard let f = score(known, levels: levels0, refit: false) else { return [] }
                starts = [(known, f)]
            } else {
                // Grid: the extent of the dark part misses faint guard bars or takes in blur.
                var best: (Geometry, Fit)?
                for blur in radii {
                    for ds in [-2.0, -1.0, 0.0, 1.0, 2.0] {
                        for de in [-2.0, -1.0, 0.0, 1.0, 2.0] {
                            let s = start + ds * module0, e = end + de * module0
                            let g = Geometry(x0: s, module: (e - s) / 95, blur: blur)
                            if let f = score(g, levels: levels0, refit: false), f.sse < (best?.1.sse ?? .infinity) { best = (g, f) }
                        }
                    }
                }
                guard let straight = best else { return [] }
                starts = [straight]
                var tilted: (Geometry, Fit)?
                for bend in bends {
                    var g = straight.0
                    g.bend = bend
                    if let f = score(g, levels: levels0, refit: false), f.sse < (tilted?.1.sse ?? straight.1.sse) { tilted = (g, f) }
                }
                if let tilted { starts.append(tilted) }
            }
            return starts.compactMap { start -> Reading? in
                guard var f = fit(profile, start.0, levels: levels0, edges: edges, margins: false) else { return nil }
                var g = start.0
                var levels = (a: f.a, b: f.b)
                guard f.b < 0, f.sse / Double(f.samples) / (f.b * f.b) <= maximumError else { return nil }
                // Refine one coordinate at a time with shrinking steps; levels held while trying a
                // move, fitted again on the move taken.
                g = Self.descend(from: g, steps: known == nil ? [0.5, 0.25, 0.125] : [0.125], module: module0) { trial in
                    guard let t = score(trial, levels: levels, refit: false), t.sse < f.sse else { return false }
                    f = t
                    if let r = score(trial, levels: levels), r.sse <= f.sse { f = r; levels = (r.a, r.b) }
                    return true
                }
                // The margins over the second-best valid code, at the geometry and levels found.
                guard let final = solve(profile, g, a: f.a, b: f.b, edges: edges, margins: true) else { return nil }
                f = final
                let noise = f.sse / Double(f.samples)
                guard noise > 0, f.b < 0 else { return nil }
                let r = range(g, count: profile.count)
                var sum = 0.0, squares = 0.0
                for j in r { sum += profile[j]; squares += profile[j] * profile[j] }
                let variance = squares - sum * sum / Double(r.count)
                return Reading(digits: f.digits, error: noise / (f.b * f.b), margin: (f.secondSSE - f.sse) / noise,
                               confidence: f.confidence.map { $0 / noise }, geometry: g, unexplained: variance > 0 ? f.sse / variance : 1,
                               levels: Levels(a: f.a, b: f.b), rivals: f.rivals)
            }
        }
    }

    /// The tilts (``Geometry/bend``) tried at the grid's best point: up to a module at one end of
    /// the symbol 1.5 times as wide as at the other (0.8 and 1.2 of the mean), either way.
    static let bends = [-0.2, -0.15, -0.1, -0.05, 0.05, 0.1, 0.15, 0.2]

    /// Whether a fit of geometry `g` to a profile of `count` samples is admitted: modules of 0.7
    /// samples or more, a blur of 0 to ``maximumBlur`` modules, the whole symbol on the profile
    /// (its quiet zones may not be: a cropped photo) and its centre in the barcode-like region.
    static func admits(_ g: Geometry, count: Int, within around: (center: Double, width: Double)?) -> Bool {
        guard g.module >= 0.7, g.blur >= 0, g.blur <= maximumBlur, g.position(0) >= 0, g.position(95) <= Double(count - 1)
        else { return false }
        if let around, abs((g.position(0) + g.position(95)) / 2 - around.center) > around.width / 2 { return false }
        return true
    }

    /// `reading` of `samples`, its margin measured against each runner-up (``Reading/rivals``) at
    /// the geometry that suits that code best, as the best code was given its own. Where the bars
    /// lie between two codes, a small change of geometry (another start, a blur a little wider)
    /// turns one into the other, and a margin measured at the best code's geometry alone is wide
    /// for whichever code the search happened to settle on. A runner-up that fits better at its
    /// own geometry than the reading does is the better reading (the search settled in another
    /// code's valley): it is taken, and its margin measured the same way, once.
    static func checkingRivals(_ reading: Reading, of samples: [Double],
                               within around: (center: Double, width: Double)? = nil) -> Reading {
        samples.withUnsafeBufferPointer { profile -> Reading in
            let edges = EdgeCache()
            let allowed = { (g: Geometry) in admits(g, count: profile.count, within: around) }
            func runnerUp(_ rivals: [[UInt8]], at g: Geometry) -> (mse: Double, geometry: Geometry) {
                var best = (mse: Double.infinity, geometry: g)
                for rival in rivals {
                    let fitted = bestFit(of: rival, from: g, profile: profile, edges: edges, allowed: allowed)
                    if fitted.mse < best.mse { best = fitted }
                }
                return best
            }
            guard var f = solve(profile, reading.geometry, a: reading.levels.a, b: reading.levels.b, edges: edges) else {
                return reading
            }
            var g = reading.geometry
            // A rival's error over as many samples as the reading's, so that the two compare.
            var against = f.rivals + reading.otherGuesses.filter { $0 != f.digits && !f.rivals.contains($0) }
            var rival = runnerUp(against, at: g)
            if rival.mse * Double(f.samples) < f.sse, let levels = fit(profile, rival.geometry, levels: (f.a, f.b), edges: edges, margins: false),
               let better = solve(profile, rival.geometry, a: levels.a, b: levels.b, edges: edges),
               better.sse / Double(better.samples) < f.sse / Double(f.samples), better.b < 0 {
                // The code the search had settled on stays a rival of the one taken instead: the
                // two valleys are that close, and the margin must say so.
                let displaced = f.digits
                (g, f) = (rival.geometry, better)
                against = f.rivals + (displaced == f.digits ? [] : [displaced])
                rival = runnerUp(against, at: g)
            }
            let noise = f.sse / Double(f.samples)
            guard noise > 0 else { return reading }
            var checked = reading
            checked.digits = f.digits
            checked.geometry = g
            checked.levels = Levels(a: f.a, b: f.b)
            checked.error = noise / (f.b * f.b)
            checked.margin = (min(f.secondSSE, rival.mse * Double(f.samples)) - f.sse) / noise
            checked.confidence = f.confidence.map { $0 / noise }
            checked.rivals = against
            return checked
        }
    }

    /// Where the dark part of the profile lies: the longest stretch whose moving mean is darker
    /// than the light level by a quarter of the contrast (gaps shorter than the window bridged).
    static func extent(_ samples: [Double]) -> (Double, Double)? {
        let sorted = samples.sorted()
        let light = sorted[Int(Double(sorted.count - 1) * 0.9)], dark = sorted[Int(Double(sorted.count - 1) * 0.05)]
        guard light - dark >= 12 else { return nil }
        let window = 4
        var prefix = [Double](repeating: 0, count: samples.count + 1)
        for (k, v) in samples.enumerated() { prefix[k + 1] = prefix[k] + v }
        let threshold = light - 0.3 * (light - dark)
        var runs: [(Int, Int)] = []
        var open: Int?
        var lastIn = -1000
        for k in 0..<samples.count {
            let lo = max(0, k - window), hi = min(samples.count, k + window + 1)
            let mean = (prefix[hi] - prefix[lo]) / Double(hi - lo)
            if mean < threshold {
                if open == nil || k - lastIn > 3 * window {
                    if let o = open { runs.append((o, lastIn)) }
                    open = k
                }
                lastIn = k
            }
        }
        if let o = open { runs.append((o, lastIn)) }
        guard let longest = runs.max(by: { $0.1 - $0.0 < $1.1 - $1.0 }), longest.1 - longest.0 >= 60 else { return nil }
        return (Double(longest.0), Double(longest.1))
    }

    /// The symbol's ends as the inner edges of its quiet zones (GS1: at least 7 modules of light on
    /// each side of an EAN-13): walking out from `center`, the first stretch of 5 modules (the
    /// module guessed from `width`, 95 modules) whose moving mean stays within a fifth of the
    /// contrast of the light level. A space inside a symbol is at most 4 modules wide; the cover
    /// around a label, darker than the label, is never reached. Where that finds no pair, the
    /// light stretches are paired by the module their own distance gives (see the body); a grey
    /// print on a dark cover adds the pair found against the bars' darkness. Each pair is a guess
    /// (sample positions of the left and right ends); none, or one or two.
    static func quietZones(_ samples: [Double], center: Double, width: Double) -> [(Double, Double)] {
        let n = samples.count
        let module = width / 95
        guard module >= 0.5, n > 20 else { return [] }
        let w = max(1, Int((1.5 * module).rounded()))
        var prefix = [Double](repeating: 0, count: n + 1)
        for (k, v) in samples.enumerated() { prefix[k + 1] = prefix[k] + v }
        let mean = (0..<n).map { k -> Double in
            let lo = max(0, k - w), hi = min(n, k + w + 1)
            return (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
        let c = min(max(Int(center), 0), n - 1)
        let lo = max(0, Int(center - 0.8 * width)), hi = min(n, Int(center + 0.8 * width) + 1)
        guard hi - lo > 10 else { return [] }
        let light = mean[lo..<hi].max()!, dark = mean[lo..<hi].min()!
        guard light - dark >= 12 else { return [] }
        let threshold = light - 0.2 * (light - dark)
        let run = max(2, Int((5 * module).rounded()))
        func edge(_ direction: Int) -> Int? {
            var k = c, count = 0
            while k >= 0 && k < n {
                if mean[k] >= threshold { count += 1; if count >= run { return k - direction * (run - 1) } } else { count = 0 }
                k += direction
            }
            return nil
        }
        var pairs: [(Double, Double)] = []
        if let left = edge(-1), let right = edge(1), right - left >= 60 { pairs.append((Double(left), Double(right))) }
        // The region can be much wider than the symbol (the label's type, its digits, a cover
        // beside it), and 5 of its modules longer than a label's quiet zone: the light stretches
        // each side are then paired by the module their own distance gives. The nearest pair
        // whose stretches are 4.5 of those modules long (or run off the profile: a cropped photo)
        // is taken. Where the bars are much lighter than the cover around the label (a grey
        // print on a label on a dark book), light is also judged against the bars' darkness
        // (``levels(_:center:width:)``): against the cover's, the faint bars count as light.
        func pair(_ threshold: Double) -> (Double, Double)? {
        func runs(_ direction: Int) -> [(inner: Int, length: Int, open: Bool)] {
            var found: [(inner: Int, length: Int, open: Bool)] = []
            var k = c, start: Int?
            while k >= 0 && k < n {
                if mean[k] >= threshold { if start == nil { start = k } } else if let s = start {
                    found.append((s, abs(k - s), false)); start = nil
                }
                k += direction
            }
            if let s = start { found.append((s, abs(k - s), true)) }
            return found
        }
        var best: (Int, Int)?
        let rights = runs(1)
        for l in runs(-1) {
            for r in rights where r.inner - l.inner >= 60 {
                // 4.5 of those modules (more than any space inside a symbol), of which the moving
                // mean takes up to `w` samples at each end.
                let need = 4.5 * Double(r.inner - l.inner) / 95
                func long(_ run: (inner: Int, length: Int, open: Bool)) -> Bool {
                    Double(run.length + 2 * w) >= (run.open ? 0.4 : 1) * need
                }
                guard long(l), long(r) else { continue }
                if best == nil || r.inner - l.inner < best!.1 - best!.0 { best = (l.inner, r.inner) }
            }
        }
        return best.map { (Double($0.0), Double($0.1)) }
        }
        if pairs.isEmpty, let p = pair(threshold) { pairs.append(p) }
        if let (_, bars) = levels(mean, center: center, width: width), bars - dark > 0.25 * (light - dark),
           let p = pair(light - 0.2 * (light - bars)),
           !pairs.contains(where: { abs($0.0 - p.0) < max(1, module) && abs($0.1 - p.1) < max(1, module) }) {
            pairs.append(p)
        }
        return pairs
    }

    /// The light and dark levels a symbol's quiet zones are told apart by, from `profile`
    /// around the barcode-like region (`center`, `width`: samples): the lightest within 0.8 of
    /// its width of its centre (the paper), and the darkest of its middle half (the bars). The
    /// cover around a label may be far darker than its bars (a grey print on a label stuck on a
    /// dark book), and against the cover's darkness the bars would count as paper. `nil` when
    /// the two are less than 12 grey levels apart.
    static func levels(_ profile: [Double], center: Double, width: Double) -> (light: Double, dark: Double)? {
        let n = profile.count
        let lo = max(0, Int(center - 0.8 * width)), hi = min(n, Int(center + 0.8 * width) + 1)
        let c = min(max(Int(center), 0), n - 1)
        let mlo = max(0, min(c, Int(center - 0.25 * width))), mhi = min(n - 1, max(c, Int(center + 0.25 * width)))
        guard hi - lo > 10 else { return nil }
        let light = profile[lo..<hi].max()!, dark = profile[mlo...mhi].min()!
        return light - dark >= 12 ? (light, dark) : nil
    }

    /// The symbol's ends as the inner edges of its quiet zones found by their flatness, not their
    /// lightness: walking out from `center`, the first place where the profile stays within 15 %
    /// of the contrast over 5 modules (the module guessed from `width`, 95 modules) and is not
    /// darker than the light level by more than 40 % of it. Blurred thin bars inside a symbol
    /// can look as light as the paper, but a blur leaves them modulated; the paper of a quiet zone
    /// is flat (GS1: at least 7 modules on each side of an EAN-13; no space inside one is wider
    /// than 4).
    static func flatZones(_ samples: [Double], center: Double, width: Double) -> (Double, Double)? {
        let n = samples.count
        let module = width / 95
        guard module >= 0.5, n > 20 else { return nil }
        let w = max(2, Int((2.5 * module).rounded()))
        let lo = max(0, Int(center - 0.8 * width)), hi = min(n, Int(center + 0.8 * width) + 1)
        guard hi - lo > 10 else { return nil }
        let window = samples[lo..<hi]
        let light = window.max()!, dark = window.min()!
        let contrast = light - dark
        guard contrast >= 12 else { return nil }
        func flat(_ k: Int) -> Bool {
            let a = max(0, k - w), b = min(n - 1, k + w)
            var top = -Double.infinity, bottom = Double.infinity, sum = 0.0
            for j in a...b { top = max(top, samples[j]); bottom = min(bottom, samples[j]); sum += samples[j] }
            return top - bottom <= 0.15 * contrast && sum / Double(b - a + 1) >= light - 0.4 * contrast
        }
        let c = min(max(Int(center), 0), n - 1)
        func edge(_ direction: Int) -> Int? {
            var k = c
            while k >= 0 && k < n {
                if flat(k) { return k - direction * w }
                k += direction
            }
            return nil
        }
        guard let left = edge(-1), let right = edge(1), right - left >= 60 else { return nil }
        return (Double(left), Double(right))
    }

    /// The symbol's ends as the outer edges of the stretch where the profile changes: the bars
    /// are edges from the first guard bar to the last, the quiet zones beyond them are still
    /// (GS1 General Specifications, EAN-13: at least 11 modules left and 7 right of it),
    /// and a label's edge beyond a quiet zone is one step. Neither lightness nor flatness is
    /// judged against the paper's level, so a halo of the camera's sharpening or a faint grey
    /// label does not make a light stretch inside the symbol look like a quiet zone, as it can
    /// for ``quietZones(_:center:width:)``. The ends lie outwards of the outer bars' edges by
    /// the blur's spread and any halo; the search from the guess reaches two modules either way.
    ///
    /// The activity is the mean absolute slope over a window of about a module (half a module
    /// each side, the module guessed from `width`, 95 modules); the profile is active where it
    /// is over a quarter of the way from the still level (its lower quartile: paper and cover)
    /// to the bars' (its median over the middle half of the region). Of the active stretches'
    /// outer edges around `center`, the shortest pair with a still stretch of 2.5 modules (the
    /// pair's own module) or more outside each, and none as long between them, is taken. A quiet
    /// zone of 7 modules, less the spread of a blur of up to about 1.75 modules each side, stays
    /// longer than that; a bar or space inside a symbol (4 modules at most) blurred by a quarter
    /// of a module or more does not. Outside that range of blur the guess is one search more,
    /// among the others.
    ///
    /// - Parameters:
    ///   - samples: the profile across the bars (grey levels).
    ///   - center, width: the barcode-like region along the profile (samples).
    /// - Returns: the ends (sample positions) as a guess, or `nil` when no pair 0.5 to 1.2 times
    ///   the region's width qualifies, or nothing changes more than twice as much as the paper.
    static func activeStretch(_ samples: [Double], center: Double, width: Double) -> (Double, Double)? {
        let n = samples.count
        guard center.isFinite, width.isFinite, n > 20 else { return nil }
        let module = width / 95
        guard module >= 0.5 else { return nil }
        let h = max(1, Int((module / 2).rounded()))
        var prefix = [Double](repeating: 0, count: n + 1)
        for k in 0..<n {
            let slope = k > 0 && k < n - 1 ? abs(samples[k + 1] - samples[k - 1]) / 2 : 0
            prefix[k + 1] = prefix[k] + slope
        }
        let activity = (0..<n).map { k -> Double in
            let lo = max(0, k - h), hi = min(n, k + h + 1)
            return (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
        let still = activity.sorted()[n / 4]
        let mlo = max(0, Int(max(-1, min(Double(n), center - width / 4))))
        let mhi = min(n, Int(max(-1, min(Double(n), center + width / 4))) + 1)
        guard mhi > mlo else { return nil }
        let bars = activity[mlo..<mhi].sorted()[(mhi - mlo) / 2]
        guard bars > 2 * still else { return nil }
        let threshold = still + 0.25 * (bars - still)
        var runs: [Range<Int>] = []
        var open: Int?
        for k in 0...n {
            if k < n, activity[k] >= threshold {
                if open == nil { open = k }
            } else if let o = open {
                runs.append(o..<k)
                open = nil
            }
        }
        let c = Int(max(0, min(Double(n - 1), center)))
        let longest = 1.2 * width
        var best: (Int, Int)?
        for l in runs.indices where runs[l].lowerBound <= c && Double(c - runs[l].lowerBound - 2 * h) <= longest {
            let before = runs[l].lowerBound - (l > 0 ? runs[l - 1].upperBound : 0)
            var inside = 0
            for r in l..<runs.count {
                if r > l { inside = max(inside, runs[r].lowerBound - runs[r - 1].upperBound) }
                // The moving mean reaches half a module beyond the outer bars' edges.
                let start = runs[l].lowerBound + h, end = runs[r].upperBound - 1 - h
                let length = Double(end - start)
                // Longer pairs only grow, and hold this still stretch or a longer one.
                if length > longest || Double(inside) >= 2.5 * longest / 95 { break }
                guard runs[r].upperBound > c else { continue }
                let after = (r + 1 < runs.count ? runs[r + 1].lowerBound : n) - runs[r].upperBound
                let needed = 2.5 * length / 95
                // A still stretch inside as long as a quiet zone's is no symbol's (type, a picture).
                guard end - start >= 60, length >= 0.5 * width,
                      Double(min(before, after)) >= needed, Double(inside) < needed else { continue }
                if best == nil || end - start < best!.1 - best!.0 { best = (start, end) }
            }
        }
        return best.map { (Double($0.0), Double($0.1)) }
    }

    /// Starting levels: the light level of the quiet zones, and a contrast such that the symbol's
    /// mean darkness is about half.
    static func initialLevels(_ profile: UnsafeBufferPointer<Double>, start: Double, end: Double) -> (a: Double, b: Double) {
        let module = (end - start) / 95
        var quiet: [Double] = []
        let s = Int(start), e = Int(end)
        for j in max(0, s - Int(6 * module))..<max(0, s - 1) { quiet.append(profile[j]) }
        for j in min(profile.count, e + 2)..<min(profile.count, e + Int(6 * module)) { quiet.append(profile[j]) }
        let a = quiet.isEmpty ? profile.max() ?? 255 : quiet.sorted()[quiet.count / 2]
        var sum = 0.0, n = 0.0
        for j in max(0, s)..<min(profile.count, e + 1) { sum += profile[j]; n += 1 }
        let mean = n > 0 ? sum / n : a
        return (a, 2 * (mean - a))
    }
}

extension EANTemplateDecoder {
    /// What the profile's values are taken to measure.
    ///
    /// A lens spreads light, so blur is a sum of light; a camera then encodes light with a
    /// gamma (sRGB: about 1/2.2, IEC 61966-2-1) and a JPEG holds the encoded values. Blurred in
    /// light and seen in encoded values, a narrow space between two bars stands out brighter
    /// than its share of light, a narrow bar fainter, and a blurred stretch of thin bars looks
    /// lighter than its mean: the model of the blur (linear in the modules' darkness) no longer
    /// holds, and the light stretch can be taken for a quiet zone. Values decoded back to light
    /// (``linear``) restore it. Prints scanned flat or blurred by processing after the encoding
    /// are better fitted in the encoded values (``pixelValues``), so both are tried.
    enum Light: Sendable {
        /// The image's values as they are.
        case pixelValues
        /// Values decoded to light: `255 × (v / 255)^gamma`, ``gamma``.
        case linear
    }

    /// The exponent that decodes encoded values to light: 2.2, the sRGB curve's overall gamma.
    static let gamma = 2.2
}

extension EANTemplateDecoder {
    /// Readings of the barcode-like region `candidate` (pixels of `image`) from profiles across
    /// its bars: the mean of lines over the middle 60 % of the bars' length, and of each third of
    /// that, each line extended by half the region's extent beyond it on both sides. The
    /// readings' positions are in samples of the profile (blocks of samples for a big region).
    ///
    /// The bands are read only when the mean of them all gives a reading with `margin` and `error`
    /// (``Reading/margin``, ``Reading/error``), each from that reading's geometry. When it does
    /// not, and the outer lines differ from the middle ones (``outerUnlikeness``), the middle half
    /// of the lines is read instead (band 0) with its two halves (bands 1 and 2), if `middle`;
    /// failing that, the first half of the lines or the last, on the same terms. Last, if
    /// `registers` (whatever `middle`), the lines registered to the bars (``BarRegistration``),
    /// with those on either side of the reference's (``BarRegistration/sides``). `activeStretch`:
    /// whether the symbol's ends are also guessed where the profile changes
    /// (``activeStretch(_:center:width:)``).
    static func readings(in image: LuminanceImage, around candidate: Candidate, margin: Double, error: Double,
                         light: Light = .pixelValues, middle readsMiddle: Bool = true,
                         registers: Bool = true, activeStretch guessesActive: Bool = true) -> [(Reading, band: Int)] {
        let rect = candidate.rect
        let radians = candidate.angle * .pi / 180
        let (dx, dy) = (cos(radians), sin(radians))
        let cx = Double(rect.x) + Double(rect.width) / 2, cy = Double(rect.y) + Double(rect.height) / 2
        let extent = abs(dx) * Double(rect.width) + abs(dy) * Double(rect.height)
        let along = abs(dy) * Double(rect.width) + abs(dx) * Double(rect.height)
        let half = extent  // the region's extent each side of its centre: twice the region
        let count = Int(2 * half) + 1
        let sampler = LineSampler(image: image, cx: cx, cy: cy, dx: dx, dy: dy, half: half, count: count, outside: nil)
        func line(_ offset: Double) -> [Double] {
            let samples = sampler.line(offset)
            guard light == .linear else { return samples }
            return samples.map { 255 * pow(max(0, $0) / 255, Self.gamma) }
        }
        guard image.width >= 2, image.height >= 2 else { return [] }
        let lines = stride(from: -0.3, through: 0.3001, by: 0.6 / 23).map { line($0 * along) }
        // Modules wider than 2.5 samples tell the fit no more than 2.5 do (a big photo's barcode,
        // type at 48 megapixels): blocks of `merge` samples are averaged into one.
        let merge = max(1, Int(extent / 95 / 2.5))
        func mean(_ group: ArraySlice<[Double]>) -> [Double] {
            var m = [Double](repeating: 0, count: count / merge)
            for l in group { for i in 0..<(m.count * merge) { m[i / merge] += l[i] } }
            let n = Double(group.count * merge)
            return m.map { $0 / n }
        }
        let scaled = ((half + 0.5) / Double(merge) - 0.5, extent / Double(merge))
        func good(_ r: Reading) -> Bool { r.margin >= margin && r.error <= error }
        let all = mean(lines[0..<24])
        // Only a reading that would pass is worth measuring against its rivals' own geometries.
        func checked(_ reading: Reading?, of profile: [Double]) -> Reading? {
            reading.map { good($0) ? checkingRivals($0, of: profile, within: scaled) : $0 }
        }
        // The search of `profile` for the symbol from every guess of its ends.
        func searched(_ profile: [Double]) -> Reading? {
            checked(decode(profile, around: scaled, maximumError: 4 * error, activeStretch: guessesActive), of: profile)
        }
        let whole = searched(all)
        if let whole, good(whole) {
            var out: [(Reading, band: Int)] = [(whole, 0)]
            for (k, band) in [lines[0..<8], lines[8..<16], lines[16..<24]].enumerated() {
                if let r = decode(mean(band), from: whole.geometry) { out.append((r, k + 1)) }
            }
            return out
        }
        // A region that reaches past the bars along their length (the digits under them, the
        // picture above) mixes other profiles into the mean. Its middle is then read on its own,
        // confirmed by its halves, but only when the outer lines are seen to differ from the
        // middle: on bars that fill the region the middle tells nothing the whole did not.
        // The bars may fill the middle of the region, or one end of it when the region reaches
        // past them on one side only (a label's edge above, its digits below): half of the lines,
        // from the middle, the first or the last half, each tried as the middle is.
        for first in [6, 0, 12] where readsMiddle {
            let band = mean(lines[first..<(first + 12)])
            let halves = [mean(lines[first..<(first + 6)]), mean(lines[(first + 6)..<(first + 12)])]
            // The two quarters of the lines outside the half.
            let outside = [0, 6, 12, 18].filter { $0 < first || $0 >= first + 12 }.map { mean(lines[$0..<($0 + 6)]) }
            let unlike = min(correlation(outside[0], band), correlation(outside[1], band))
            guard 1 - unlike > 2 * (1 - correlation(halves[0], halves[1])) + Self.outerUnlikeness,
                  let read = searched(band), good(read)
            else { continue }
            var out: [(Reading, band: Int)] = [(read, 0)]
            for (k, half) in halves.enumerated() {
                if let r = decode(half, from: read.geometry) { out.append((r, k + 1)) }
            }
            return out
        }
        // Bars that converge, or end along a slanted edge (a label in perspective, sheared), are
        // not one profile over all the lines, nor over any band of them: the lines registered to
        // the bars (``BarRegistration``) are read, to be confirmed by those on either side of the
        // lines they were registered to (three or more). Last, so that what the plain lines read
        // is read as before.
        let span = Int(half - extent / 2)..<Int((half + extent / 2).rounded(.up))
        if registers, let registered = BarRegistration(lines, span: span, spacing: 0.6 * along / 23) {
            let band = registered.mean(merge: merge)
            if let read = searched(band), good(read) {
                var out: [(Reading, band: Int)] = [(read, 0)]
                for (k, side) in registered.sides.enumerated() where registered.lines.filter(side).count >= 3 {
                    if let r = decode(registered.mean(merge: merge, of: side), from: read.geometry) { out.append((r, k + 1)) }
                }
                return out
            }
        }
        return whole.map { [($0, 0)] } ?? []
    }

    /// The direction across the bars of `candidate` (degrees, as ``Candidate/angle``), measured
    /// from the bars themselves: the candidate map's direction comes from gradients over blocks
    /// that also hold type and the label's edges, and is off by a few degrees on a small blurred
    /// symbol, while lines averaged along the bars at a direction off by θ smear the profile by
    /// `tan θ` times their spread (over the middle of a 100-pixel bar, 2 modules of a small
    /// symbol at 3°). The mean of the upper lines and the mean of the lower lines are the same
    /// profile shifted by `D tan θ`, `D` the distance between them: the shift that best
    /// correlates them gives θ. A shift beyond ``angleSearch`` degrees, or a correlation too
    /// weak to trust, leaves the map's direction.
    static func refinedAngle(in image: LuminanceImage, around candidate: Candidate) -> Double {
        let rect = candidate.rect
        guard image.width >= 2, image.height >= 2 else { return candidate.angle }
        let radians0 = candidate.angle * .pi / 180
        let extent = abs(cos(radians0)) * Double(rect.width) + abs(sin(radians0)) * Double(rect.height)
        let along = abs(sin(radians0)) * Double(rect.width) + abs(cos(radians0)) * Double(rect.height)
        let cx = Double(rect.x) + Double(rect.width) / 2, cy = Double(rect.y) + Double(rect.height) / 2
        let half = extent / 2, count = Int(2 * half) + 1
        let distance = 0.35 * along
        guard count >= 32, distance >= 8 else { return candidate.angle }
        // The shift (samples) of the lower lines' mean against the upper lines' at `degrees`, and
        // the correlation at that shift.
        func shift(_ degrees: Double) -> (lag: Double, correlation: Double)? {
            let radians = degrees * .pi / 180
            let sampler = LineSampler(image: image, cx: cx, cy: cy, dx: cos(radians), dy: sin(radians), half: half,
                                      count: count, outside: nil)
            func mean(_ from: Double, _ to: Double) -> [Double] {
                var m = [Double](repeating: 0, count: count)
                for k in 0..<6 {
                    let line = sampler.line((from + (to - from) * Double(k) / 5) * along)
                    for i in 0..<count { m[i] += line[i] }
                }
                return m
            }
            let upper = mean(-0.3, -0.05), lower = mean(0.05, 0.3)
            let reach = Int((distance * tan(angleSearch * .pi / 180)).rounded(.up)) + 1
            guard count > 4 * reach else { return nil }
            func correlation(_ lag: Int) -> Double {
                let a = Array(upper[reach..<(count - reach)]), b = Array(lower[(reach + lag)..<(count - reach + lag)])
                return Self.correlation(a, b)
            }
            let scores = (-reach...reach).map { correlation($0) }
            guard let k = scores.indices.max(by: { scores[$0] < scores[$1] }), k > 0, k < scores.count - 1 else { return nil }
            let (l, c, r) = (scores[k - 1], scores[k], scores[k + 1])
            let curvature = l - 2 * c + r
            let offset = curvature < 0 ? 0.5 * (l - r) / curvature : 0
            return (Double(k - reach) + offset, c)
        }
        guard let first = shift(candidate.angle), first.correlation >= 0.5 else { return candidate.angle }
        let turn = atan(first.lag / distance) * 180 / .pi
        guard abs(turn) <= angleSearch else { return candidate.angle }
        // Which way the shift turns the lines is the one that leaves the smaller shift.
        var best = (angle: candidate.angle, lag: abs(first.lag))
        for trial in [candidate.angle + turn, candidate.angle - turn] {
            if let again = shift(trial), abs(again.lag) < best.lag { best = (trial, abs(again.lag)) }
        }
        return best.angle
    }

    /// How far (degrees) ``refinedAngle(in:around:)`` may turn the candidate map's direction.
    static let angleSearch = 6.0

    /// How much less (in correlation) the outer lines of a region must resemble its middle than
    /// the middle's two halves resemble each other before the middle is read on its own: more
    /// than noise between bands of a uniform region gives.
    static let outerUnlikeness = 0.02

    /// The Pearson correlation of two profiles of equal length (1: the same shape, whatever
    /// their levels and contrast); 0 when either is flat.
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(min(a.count, b.count))
        guard n > 1 else { return 0 }
        var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
        for i in 0..<min(a.count, b.count) {
            sa += a[i]; sb += b[i]; saa += a[i] * a[i]; sbb += b[i] * b[i]; sab += a[i] * b[i]
        }
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n
        guard va > 0, vb > 0 else { return 0 }
        return (sab - sa * sb / n) / (va * vb).squareRoot()
    }
}
