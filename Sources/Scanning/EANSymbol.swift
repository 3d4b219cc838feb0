// SPDX-License-Identifier: Apache-2.0
/// The EAN-13 and EAN-8 symbols, defined once for every decoder of isbnscan's own (the line
/// decoder, the re-measurement's profile fit, the fit of the whole symbol): ISO/IEC 15420, GS1
/// General Specifications §5.2.1.
///
/// An EAN-13 is 95 modules: normal guard 101, six left-hand characters from number set A (L)
/// or B (G) — which set each takes encodes the leading digit (``parities``) — centre guard
/// 01010, six right-hand characters from set C (R), normal guard 101. An EAN-8 is 67 modules:
/// the same guards around four set-A and four set-C characters. Every character is 7 modules in
/// 4 elements (2 bars, 2 spaces). Add-ons (EAN-2, EAN-5) are decoded by zbar only.
enum EANSymbol {
    /// Element widths in modules of digits 0…9 in set A (L), from the left, space first
    /// (digit 0 is 0001101). Set C (R) has the same widths bar first (1110010); set B (G) is
    /// set C reversed (0100111). §5.2.1.2.1.
    static let widthsA: [[Int]] = [
        [3, 2, 1, 1], [2, 2, 2, 1], [2, 1, 2, 2], [1, 4, 1, 1], [1, 1, 3, 2],
        [1, 2, 3, 1], [1, 1, 1, 4], [1, 3, 1, 2], [1, 2, 1, 3], [3, 1, 1, 2],
    ]

    /// The number sets of the six left-hand characters (A = false, B = true) for leading digits
    /// 0…9 (§5.2.1.2.3).
    static let parities: [[Bool]] = [
        "AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB", "ABBAAB", "ABBBAA", "ABABAB", "ABABBA", "ABBABA",
    ].map { $0.map { $0 == "B" } }

    /// Module patterns (1 = bar) of digits 0…9 in sets A, B and C, 7 modules each, from the left.
    static let modulesA: [[UInt8]] = widthsA.map { widths in
        var modules: [UInt8] = []
        for (k, width) in widths.enumerated() { modules += [UInt8](repeating: k % 2 == 0 ? 0 : 1, count: width) }
        return modules
    }
    static let modulesC: [[UInt8]] = modulesA.map { $0.map { 1 - $0 } }
    static let modulesB: [[UInt8]] = modulesC.map { $0.reversed() }

    /// Element widths of the normal guard (bar, space, bar) and of the centre guard (space, bar,
    /// space, bar, space).
    static let normalGuard = [1, 1, 1], centreGuard = [1, 1, 1, 1, 1]

    /// The guard modules of an EAN-13 (1 = bar): start 0–2, centre 45–49, end 92–94.
    static let guards13: [(module: Int, bar: UInt8)] =
        [(0, 1), (1, 0), (2, 1), (45, 0), (46, 1), (47, 0), (48, 1), (49, 0), (92, 1), (93, 0), (94, 1)]

    /// The first module of symbol character `c` (0…11) of an EAN-13.
    @inline(__always) static func firstModule(_ c: Int) -> Int { c < 6 ? 3 + 7 * c : 50 + 7 * (c - 6) }

    /// The element widths of the whole symbol for `digits` (13 for an EAN-13, 8 for an EAN-8),
    /// bar first, guards included; `nil` for another length.
    static func elements(of digits: [UInt8]) -> [Int]? {
        let half: Int
        let parity: [Bool]
        switch digits.count {
        case 13: half = 6; parity = parities[Int(digits[0])]
        case 8: half = 4; parity = [Bool](repeating: false, count: 4)
        default: return nil
        }
        let encoded = digits.count == 13 ? Array(digits[1...]) : digits
        var widths = normalGuard
        for c in 0..<half {
            let a = widthsA[Int(encoded[c])]
            // Left-hand characters begin with a space: the space after the guard's last bar.
            widths += parity[c] ? a.reversed() : a
        }
        widths += centreGuard
        for c in half..<(2 * half) { widths += widthsA[Int(encoded[c])] }
        // Widths alternate bar, space, … from the first guard bar; the centre guard starts with
        // a space, right-hand characters with a bar, and that keeps the alternation.
        return widths + normalGuard
    }
}

extension EANSymbol {
    /// Where module boundary `u` (modules from the symbol's left edge, 0…`length`) lies along a
    /// scan line, in pixels: a symbol starting at `x0` with mean module width `module`, seen in
    /// perspective so that the module width changes linearly from `1 − bend` of the mean at
    /// the start to `1 + bend` at the end. The ends stay where `x0` and `module` put them.
    /// Every model of the symbol along a line (the profile fit, the template fit) places its
    /// modules with this one formula.
    @inline(__always)
    static func position(_ u: Double, x0: Double, module: Double, bend: Double, length: Double) -> Double {
        x0 + module * (u + bend * u * (u - length) / length)
    }
}
