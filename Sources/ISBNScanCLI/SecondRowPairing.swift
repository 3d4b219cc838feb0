// SPDX-License-Identifier: Apache-2.0
import ISBN
import Records
import Scanning

/// A Japanese book before the camera: its second barcode (the 書籍JANコード second row, `192` +
/// C-code + price) and its ISBN may be read in different frames. The last second row read is
/// given to a 978-4 ISBN confirmed within ``frames`` frames of it; a second row refused with no
/// ISBN printed that near is said once per code, as what it is.
struct SecondRowPairing {
    /// Frames within which a second row and its ISBN are taken as one book (about 1.5 s at 30 frames/s).
    static let frames = 45

    /// The last second row read, and its frame.
    private var last: (code: JapaneseBookCode, frame: Int)?
    /// The frame of the last ISBN printed.
    private var lastPrinted: Int?
    /// Second rows already said.
    private var explained: Set<String> = []

    /// Takes note of the second rows among the codes read in `frame`.
    mutating func read(_ report: ScanReport, frame: Int) {
        for code in report.codes {
            if let japanese = JapaneseBookCode(ean: code.symbol.data) { last = (japanese, frame) }
        }
    }

    /// Gives the second row read near `frame` to `event`'s first 978-4 ISBN that has none.
    func attach(to event: inout FrameEventRecord, frame: Int) {
        guard let (japanese, seen) = last, frame - seen <= Self.frames,
              let isbn = event.isbns.first(where: { $0.isbn13.hasPrefix("9784") && $0.jpBookCode == nil }) else { return }
        event.attach(japanese, to: isbn.isbn13)
    }

    /// An ISBN was printed at `frame`.
    mutating func printed(at frame: Int) { lastPrinted = frame }

    /// Whether `code`, refused at `frame`, is to be said: the first time it is refused, unless
    /// its ISBN was printed just before (then it is that book's second row, no news).
    mutating func shouldExplain(_ code: JapaneseBookCode, at frame: Int) -> Bool {
        let near = lastPrinted.map { frame - $0 <= Self.frames } ?? false
        return !near && explained.insert(code.code).inserted
    }
}
