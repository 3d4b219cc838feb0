import ISBN

/// One EAN-13/EAN-8 symbol and the ISBN layer's verdict on it.
public struct ReadCode: Hashable, Sendable {
    public var symbol: Symbol
    public var verdict: Verdict
}

/// Everything read from one image: symbols with add-ons attached, and for each the verdict.
///
/// Built from the raw symbols of one or more scans of the same image:
/// 1. add-ons (EAN-2/EAN-5) are attached to the nearest EAN-13 beside them (within one
///    barcode width); unpaired add-ons are dropped;
/// 2. repeated reads of the same digits at the same place collapse to one (highest quality);
/// 3. two *different* EAN-13 values at the same place (boxes overlapping by more than half of
///    the smaller) are both refused as ``RejectionReason/ambiguous``;
/// 4. every other EAN-13/EAN-8 is judged by ``ISBN/judge(ean:)``.
public struct ScanReport: Sendable {
    /// Symbols in reading order (top to bottom, then left to right), each with its verdict.
    public var codes: [ReadCode]

    public init(symbols raw: [Symbol]) {
        let main = ScanReport.attachAddOns(raw)
        var kept: [Symbol] = []
        for symbol in main {
            if let index = kept.firstIndex(where: { $0.data == symbol.data && $0.overlaps(symbol) }) {
                if symbol.quality > kept[index].quality {
                    let addOn = kept[index].addOn
                    kept[index] = symbol
                    if kept[index].addOn == nil { kept[index].addOn = addOn }
                } else if kept[index].addOn == nil {
                    kept[index].addOn = symbol.addOn
                }
            } else {
                kept.append(symbol)
            }
        }
        kept.sort { a, b in
            let ba = a.bounds, bb = b.bounds
            return (ba.minY, ba.minX, a.data) < (bb.minY, bb.minX, b.data)
        }
        codes = kept.map { symbol in
            let rival = kept.first { other in
                other.symbology == .ean13 && symbol.symbology == .ean13 && other.data != symbol.data
                    && other.overlaps(symbol)
            }
            if let rival {
                return ReadCode(symbol: symbol, verdict: .rejected(Rejection(.ambiguous,
                    "the same barcode also read as \(rival.data); neither is trusted")))
            }
            return ReadCode(symbol: symbol, verdict: ISBN.judge(ean: symbol.data))
        }
    }

    /// The first accepted code of each ISBN, in reading order (so each ISBN once, with the
    /// symbol it was read from).
    public var accepted: [ReadCode] {
        var seen = Set<ISBN>()
        return codes.filter { code in code.verdict.isbn.map { seen.insert($0).inserted } ?? false }
    }

    /// Accepted ISBNs, each once, in reading order.
    public var isbns: [ISBN] { accepted.compactMap(\.verdict.isbn) }

    /// Codes refused by the ISBN layer, with their reasons.
    public var rejected: [ReadCode] { codes.filter { $0.verdict.rejection != nil } }

    /// Attaches each add-on to the nearest EAN-13 it sits beside; drops the rest.
    static func attachAddOns(_ raw: [Symbol]) -> [Symbol] {
        var main = raw.filter { !$0.symbology.isAddOn }
        for addOn in raw where addOn.symbology.isAddOn {
            let a = addOn.bounds
            let centre = (x: Double(a.minX + a.maxX) / 2, y: Double(a.minY + a.maxY) / 2)
            var best: (index: Int, distance: Double)?
            for (index, symbol) in main.enumerated() where symbol.symbology == .ean13 {
                let b = symbol.bounds
                let dx = max(Double(b.minX) - centre.x, 0, centre.x - Double(b.maxX))
                let dy = max(Double(b.minY) - centre.y, 0, centre.y - Double(b.maxY))
                let distance = (dx * dx + dy * dy).squareRoot()
                let reach = Double(max(b.maxX - b.minX, b.maxY - b.minY, 1))
                if distance <= reach, distance < (best?.distance ?? .infinity) { best = (index, distance) }
            }
            if let best, main[best.index].addOn == nil { main[best.index].addOn = addOn.data }
        }
        return main
    }
}

extension Symbol {
    /// Whether `self` and `other` lie at the same place: their boxes overlap by more than half
    /// of the smaller box, or — when they hold the same digits — they span the same extent
    /// (80 % or more of the wider) along one axis and lie side by side along the other, less
    /// than a quarter of that extent apart (two bands of the same bars). zbar's boxes of a straight barcode can be thin (a few scan
    /// lines), so each box is first grown to at least 8 pixels in each direction.
    func overlaps(_ other: Symbol) -> Bool {
        func grown(_ b: (minX: Int, minY: Int, maxX: Int, maxY: Int)) -> (Int, Int, Int, Int) {
            let padX = max(0, 8 - (b.maxX - b.minX)) / 2, padY = max(0, 8 - (b.maxY - b.minY)) / 2
            return (b.minX - padX, b.minY - padY, b.maxX + padX, b.maxY + padY)
        }
        let (ax0, ay0, ax1, ay1) = grown(bounds), (bx0, by0, bx1, by1) = grown(other.bounds)
        let ix = max(0, min(ax1, bx1) - max(ax0, bx0)), iy = max(0, min(ay1, by1) - max(ay0, by0))
        let areaA = (ax1 - ax0) * (ay1 - ay0), areaB = (bx1 - bx0) * (by1 - by0)
        let smaller = max(1, min(areaA, areaB))
        if ix * iy * 2 > smaller { return true }
        // Two reads of one barcode by different passes can cover different bands of its bars:
        // nearly the same extent along the bars' reading direction, side by side across it.
        // Only for the same digits: two different books stacked close together stay two books.
        guard data == other.data else { return false }
        let (aw, ah, bw, bh) = (ax1 - ax0, ay1 - ay0, bx1 - bx0, by1 - by0)
        let gapY = max(0, max(ay0, by0) - min(ay1, by1)), gapX = max(0, max(ax0, bx0) - min(ax1, bx1))
        if ix * 5 >= 4 * max(aw, bw) && gapY * 4 <= max(aw, bw) { return true }
        if iy * 5 >= 4 * max(ah, bh) && gapX * 4 <= max(ah, bh) { return true }
        return false
    }
}
