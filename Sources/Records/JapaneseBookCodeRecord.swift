// SPDX-License-Identifier: Apache-2.0
import ISBN

extension JapaneseBookCode {
    /// `{"code", "c_code", "audience", "format", "subject", "price_yen", "tax_included"}`: each
    /// meaning `{"ja", "en"}` (`null` for a number the C-code table leaves unused), `price_yen`
    /// `null` for 100,000 yen or more, `tax_included` `true` for the older `191` form.
    public var json: JSONValue {
        let meaning: (Meaning?) -> JSONValue = { $0.map { .object(["ja": .string($0.ja), "en": .string($0.en)]) } ?? .null }
        return .object(["code": .string(code), "c_code": .string(cCode), "audience": meaning(audience), "format": meaning(format),
                        "subject": meaning(subject), "price_yen": .optional(priceYen), "tax_included": .bool(taxIncluded)])
    }

    /// For the CSV's price column: `JPY 1500`, `JPY 1500 tax included`, `JPY 100000 or more`.
    public var csvPrice: String {
        guard let priceYen else { return "JPY 100000 or more" }
        return "JPY \(priceYen)" + (taxIncluded ? " tax included" : "")
    }

    /// Why such a code read alone is not an ISBN (the refusal's detail).
    public var refusalDetail: String {
        "a Japanese book code (書籍JANコード second row: \(description)), not an ISBN; the ISBN is the other barcode of the pair"
    }
}

extension FileRecord {
    /// Moves each Japanese book code among the refusals to the ISBN it belongs to: the accepted
    /// ISBN on the same page nearest to it (the two rows are printed one above the other). A code
    /// with no ISBN beside it stays refused, with reason `jp-book-code` and what it is.
    mutating func pairJapaneseBookCodes() {
        JapaneseBookCode.pair(symbols: &symbols, isbns: &isbns, rejected: &rejected)
    }
}

extension FrameEventRecord {
    /// The Japanese book codes of the frame given to the ISBNs confirmed beside them (as
    /// ``FileRecord`` does for a file).
    mutating func pairJapaneseBookCodes() {
        JapaneseBookCode.pair(symbols: &symbols, isbns: &isbns, rejected: &rejected)
    }

    /// `code`, read in an earlier frame, given to the ISBN `isbn13` printed now (a camera may
    /// read the two rows in different frames), unless it has a code already.
    public mutating func attach(_ code: JapaneseBookCode, to isbn13: String) {
        guard let index = isbns.firstIndex(where: { $0.isbn13 == isbn13 }), isbns[index].jpBookCode == nil else { return }
        isbns[index].jpBookCode = code
        for s in symbols.indices where s < symbols.count && symbols[s].isbn?.isbn13 == isbn13 { symbols[s].isbn?.jpBookCode = code }
    }
}

extension JapaneseBookCode {
    /// Pairs each code among `symbols`' refusals with the accepted ISBN nearest to it on the same
    /// page; one without an ISBN beside it stays refused, with reason `jp-book-code`.
    static func pair(symbols: inout [SymbolRecord], isbns: inout [ISBNRecord], rejected: inout [RefusalRecord]) {
        for index in symbols.indices {
            guard let refusal = symbols[index].refusal, let code = JapaneseBookCode(ean: symbols[index].data) else { continue }
            let partner = partner(of: index, in: symbols)
            symbols[index].jpBookCode = code
            if let partner, let isbn = symbols[partner].isbn {
                symbols[index].refusal = nil
                symbols[index].pairedISBN = isbn.isbn13
                symbols[partner].isbn?.jpBookCode = code
                if let accepted = isbns.firstIndex(where: { $0.isbn13 == isbn.isbn13 && $0.page == isbn.page }) {
                    isbns[accepted].jpBookCode = code
                }
                rejected.removeAll { $0.data == refusal.data }
            } else {
                let alone = RefusalRecord(type: refusal.type, data: refusal.data, reason: "jp-book-code", detail: code.refusalDetail,
                                          misreadOf: refusal.misreadOf)
                symbols[index].refusal = alone
                rejected = rejected.map { $0.data == refusal.data ? alone : $0 }
            }
        }
    }

    /// The accepted symbol on the same page nearest to `symbols[index]` (the first of those
    /// equally near), or `nil` when the page has none.
    static func partner(of index: Int, in symbols: [SymbolRecord]) -> Int? {
        let here = symbols[index]
        return symbols.indices.filter { symbols[$0].isbn != nil && symbols[$0].page == here.page }
            .min { distance(symbols[$0], here) < distance(symbols[$1], here) }
    }

    /// Squared distance between the centres of two symbols' polygons, in pixels².
    private static func distance(_ a: SymbolRecord, _ b: SymbolRecord) -> Int {
        func centre(_ s: SymbolRecord) -> (Int, Int) {
            guard !s.polygon.isEmpty else { return (0, 0) }
            return (s.polygon.map(\.x).reduce(0, +) / s.polygon.count, s.polygon.map(\.y).reduce(0, +) / s.polygon.count)
        }
        let (ax, ay) = centre(a), (bx, by) = centre(b)
        return (ax - bx) * (ax - bx) + (ay - by) * (ay - by)
    }
}
