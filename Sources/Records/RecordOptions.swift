import ISBN
import Scanning

/// What records are built with: the range message for hyphenation, and which prefixes count as ISBNs.
public struct RecordOptions: Sendable {
    /// Hyphenate ISBNs and name their group with this message; `nil`: no hyphenation.
    public var ranges: RangeMessage?
    /// `--accept 979`: 979 ISBNs accepted too.
    public var prefixes: ISBNPrefixes
    public init(ranges: RangeMessage? = nil, prefixes: ISBNPrefixes = .only978) {
        self.ranges = ranges
        self.prefixes = prefixes
    }
}

extension ScanReport {
    /// The report with 979 ISBNs accepted when `prefixes` is ``ISBNPrefixes/with979``: codes the
    /// scanner refused for their prefix are judged again (ISMN 979-0 stays refused; ambiguous
    /// readings stay refused).
    public func judged(accepting prefixes: ISBNPrefixes) -> ScanReport {
        guard prefixes != .only978 else { return self }
        var report = self
        report.codes = codes.map { code in
            guard code.verdict.rejection?.reason == .prefix, code.symbol.data.hasPrefix("979") else { return code }
            var judged = code
            judged.verdict = ISBN.judge(ean: code.symbol.data, accepting: prefixes)
            return judged
        }
        return report
    }
}
