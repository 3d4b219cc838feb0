// SPDX-License-Identifier: Apache-2.0
import ISBN

/// Decides, place by place, which reading of a barcode to trust: the one place in isbnscan
/// where what is accepted is decided (for `scan`, batch folders and, per frame, `camera`).
///
/// Readings of one image (every pass, every scale) are grouped by place: same symbology, boxes
/// overlapping (``Symbol/overlaps(_:)``). The evidence for a code at a place counts the
/// independent measurements that read it (``Measurement``), each once, however many passes
/// made its readings (every zbar pass, however the pixels were filtered, scaled, inverted or
/// turned, is one measurement):
///
/// | measurement that read the code | evidence |
/// | --- | --- |
/// | zbar (edges), not contradicted by the re-measurement | 1 |
/// | the line decoder (character widths), not contradicted | 1 |
/// | the re-measurement's profile fit: it confirms a decoder's reading (``Verification/confirmed(lines:)``), or re-decodes another reading's bars to this code (``Verification/contradicted(by:lines:)``) | 2 |
/// | the fit of the whole symbol (``EANTemplateDecoder``) | 2 |
///
/// So a zbar reading the fit confirms has 3, zbar read twice has 1, and the symbol fit alone
/// has 2: not three times a zbar reading of another code, which leaves such a place without a
/// winner unless the widths tell the two apart (``Place/widthVote``).
/// A misread that comes from the bars — ink spread, blur, a damaged character — comes back
/// with every pass, so a count of passes would let whichever code more passes happened to
/// repeat win, and let the outcome depend on how many passes ran. How often a code was read
/// still tells a barcode from a pattern decoded once by chance: that count (``Place/support``)
/// is what the gates ask for — the evidence a place only recovery passes read needs to be judged
/// at all, and whether a result is settled — never what decides between two codes.
///
/// The code with the most evidence at a place wins when it has at least ``winningRatio`` times the evidence of every rival there
/// (3:1 wins, 2:1 and 1:1 do not), or ``closeRatio`` times (2:1) when the scan lines that read
/// it (zbar's quality) also outnumber every rival's ``lineRatio`` times, or when it wins the vote
/// digit by digit at every position where the readings differ, 3:1 (``Place/digitVote``), or —
/// where its rivals differ from it only in digits that bar widths alone tell apart (1↔7, 2↔8) —
/// when it is the only code there that a width measurement read (``Place/widthVote``); its
/// verdict is the ISBN layer's (``ISBN/judge(ean:)``), and
/// every rival is refused as ``ISBN/RejectionReason/misread`` naming the winner. Without a
/// winner every reading at the place is refused as ``ISBN/RejectionReason/ambiguous``.
///
/// Where the bars leave a place in doubt (``Place/isInDoubt``) and a ``PrintedDigitsWitness``
/// is at hand, the digits printed under the symbol (GS1 General Specifications §5.2.3) are one
/// more measurement (``Place/PrintedDigits``): they choose among the codes the bars support
/// there, and count for nothing else.
///
/// The fit (``ReadingVerifier``, ``EANProfileFit``) measures the widths of bars and spaces
/// against the GS1 character patterns (GS1 General Specifications §5.2.1) with the ink spread
/// of the print estimated from the whole symbol, which is what separates 1 from 7 and 2 from 8.
public enum Arbiter {
    /// How many times the evidence of its strongest rival a code needs to win its place.
    public static let winningRatio = 3

    /// Weight of one reading for its own digits, counted for every reading in ``Place/support``:
    /// 1 for a decoder's reading, 3 for one the re-measurement confirmed (or a reading of the
    /// symbol fit), 0 for one it contradicted.
    static func weight(_ symbol: Symbol) -> Int {
        switch symbol.verification {
        case .confirmed?: 3
        case .contradicted?: 0
        case .unverified?, nil: 1
        }
    }

    /// With at least ``closeRatio`` times a rival's evidence, a code also wins when its scan
    /// lines outnumber the rival's ``lineRatio`` times.
    public static let closeRatio = 2
    /// See ``closeRatio``.
    public static let lineRatio = 10
    /// Scan lines a code the re-measurement could not confirm must have been read on (zbar's
    /// quality summed over the readings) to be judged at all.
    public static let minimumLines = 2

    /// One place of an image: the readings there, the evidence and the scan lines per code.
    struct Place {
        var readings: [Symbol]
        /// Evidence per code, which decides between codes: for each ``Measurement`` that read the
        /// code here, the strongest weight among its readings; summed over the measurements.
        var evidence: [String: Int] = [:]
        /// Scan lines that read each code (zbar's quality, the line decoder's and the fit's line
        /// counts), for the same contest: for each measurement the most that one of its readings
        /// had, summed over the measurements (a pass that reads the same lines again adds none).
        var lines: [String: Int] = [:]
        /// Every reading's weight per code, summed: how steadily the code is read, whatever
        /// measured it. What a place needs to be judged at all and to count as settled
        /// (``Arbiter/judge(_:recoveryEvidence:accepting:printedDigits:)``,
        /// ``Arbiter/isSettled(_:minimumEvidence:accepting:)``); never evidence against a rival.
        var support: [String: Int] = [:]
        /// Scan lines per code summed over every reading, for ``isTrusted(_:)``.
        var supportLines: [String: Int] = [:]

        /// The digits printed under the symbol, when they were read here (``PrintedDigitsWitness``:
        /// only where the bars leave the place in doubt, ``isInDoubt``).
        var printed: String?

        /// The winning code and its evidence, or `nil` when no code has ``winningRatio`` times
        /// the evidence of each rival — or ``closeRatio`` times and ``lineRatio`` times its scan
        /// lines — (or none has any); where the digits printed under the symbol were read, as
        /// they settle it (``byPrintedDigits``).
        var winner: (data: String, evidence: Int)? {
            guard printed != nil else { return byBars }
            switch byPrintedDigits {
            case .settles(let code), .agrees(let code): return (code, evidence[code] ?? 0)
            case .disputes: return nil
            case .none: return byBars
            }
        }

        /// The winner by the bars alone: by the widths' vote where it speaks, else by the evidence.
        var byBars: (data: String, evidence: Int)? { widthVote ?? byEvidence }

        /// Whether the widths' vote speaks for `code`: the reason to give for refusing its rivals,
        /// whether or not the evidence alone would have chosen it too.
        func widthsSpeak(for code: String) -> Bool { widthVote?.data == code }

        /// Whether the bars leave this EAN-13 in doubt, so that the digits printed under it are
        /// worth reading: two or more codes with a valid check digit have evidence here, and
        /// none has ``winningRatio`` times the evidence of every other (no winner, or one that won
        /// by its scan lines, the vote digit by digit or the widths).
        var isInDoubt: Bool {
            guard readings.allSatisfy({ $0.symbology == .ean13 }) else { return false }
            let valid = evidence.filter { code in
                code.value > 0 && EAN.digitValues(code.key).map { $0.count == 13 && EAN.hasValidCheckDigit($0) } == true
            }
            guard valid.count >= 2 else { return false }
            guard let top = byBars else { return true }
            let rival = valid.filter { $0.key != top.data }.map(\.value).max() ?? 0
            return top.evidence < Arbiter.winningRatio * rival
        }

        /// What the printed digits (``printed``) do at a place in doubt. They are one more
        /// measurement, independent of the bars' edges, never a reading of their own: they count
        /// only for a code the bars support here (evidence, and trusted: ``isTrusted(_:)``).
        enum PrintedDigits: Equatable {
            /// No winner by the bars; the printed digits are one of the codes they support.
            case settles(String)
            /// The bars' narrow winner is what is printed.
            case agrees(String)
            /// The bars' narrow winner is not what is printed, another code they support is: the
            /// two measurements disagree, nothing wins.
            case disputes(String)
            /// Not read, not in doubt, or none of the codes the bars support here.
            case none
        }

        /// ``PrintedDigits`` for this place.
        var byPrintedDigits: PrintedDigits {
            guard let printed, isInDoubt, (evidence[printed] ?? 0) > 0, isTrusted(printed) else { return .none }
            guard let bars = byBars else { return .settles(printed) }
            return bars.data == printed ? .agrees(printed) : .disputes(printed)
        }

        /// The winner by the ratios of evidence and scan lines, or by the vote digit by digit.
        var byEvidence: (data: String, evidence: Int)? {
            guard let top = evidence.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), top.value > 0 else { return nil }
            let rival = evidence.filter { $0.key != top.key }.map(\.value).max() ?? 0
            if top.value >= Arbiter.winningRatio * rival { return (top.key, top.value) }
            let rivalLines = lines.filter { $0.key != top.key }.map(\.value).max() ?? 0
            if top.value >= Arbiter.closeRatio * rival && (lines[top.key] ?? 0) >= Arbiter.lineRatio * max(1, rivalLines) {
                return (top.key, top.value)
            }
            return digitVote
        }

        /// The code the widths of the bars decide for, whatever the count of readings: it is the
        /// only code here that a measurement of the widths (the fit of the printed symbol, or the
        /// re-measurement's profile fit) read or confirmed, and every rival is one that edge
        /// decoders alone read and that no width measurement supports where this one does:
        /// - a code differing from it only in digits that share their edge-to-similar-edge
        ///   distances (1↔7, 2↔8, ``Symbol/differOnlyInBarWidths(_:_:)``): edge decoders — zbar
        ///   and the line decoder — take those digits from bar widths measured against a
        ///   threshold, which ink spread, blur in light and camera sharpening shift for every line
        ///   alike, and the fit models the spread and the blur, which is what tells 1 from 7;
        /// - a code that cannot be a book number (no 978/979 prefix): zbar's total misread of a
        ///   defocused EAN-13, often from half of it, has a valid check digit and a product
        ///   code's prefix, and is refused whatever its digits.
        /// Passes that repeat an edge decoder on the same pixels measure the same thing again.
        var widthVote: (data: String, evidence: Int)? {
            let measured = Set(readings.filter { $0.pass == .fit || Arbiter.weight($0) == 3 }.map(\.data))
            guard measured.count == 1, let code = measured.first, let support = evidence[code], support > 0 else { return nil }
            let rivals = evidence.filter { $0.key != code && $0.value > 0 }.keys
            guard !rivals.isEmpty, rivals.allSatisfy({ Self.widthsTellApart(code, $0) }) else { return nil }
            return (code, support)
        }

        /// Whether a width measurement reading `code` outweighs edge decoders reading `rival`
        /// (``widthVote``).
        static func widthsTellApart(_ code: String, _ rival: String) -> Bool {
            Symbol.differOnlyInBarWidths(code, rival) || !Arbiter.canBeBookNumber(rival)
        }

        /// Where the digits printed under this place's symbol are: the box around its readings
        /// (pixels of the full-size image) and the direction its bars are read in (degrees
        /// clockwise: the orientation most of its readings give, else 0 for a box wider than
        /// tall). `nil` for a place without a box, or upright or lying without an orientation
        /// read.
        var symbolBox: (box: PixelRect, orientation: Int)? {
            guard let box else { return nil }
            var votes: [Int: Int] = [:]
            for reading in readings { if let o = reading.orientation { votes[o, default: 0] += 1 } }
            if let (orientation, _) = votes.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) { return (box, orientation) }
            return box.width > box.height ? (box, 0) : nil
        }

        /// The box around every reading here (pixels of the image read), or `nil` when none has one.
        var box: PixelRect? {
            let boxes = readings.compactMap(\.place)
            return boxes.dropFirst().reduce(boxes.first) { $0?.union($1) }
        }

        /// The winner, when it has at least `minimumEvidence` of support (``support``) and may be
        /// judged (``isTrusted(_:)``): what ``Arbiter/isSettled(_:minimumEvidence:accepting:)``
        /// asks of every place.
        func settledWinner(minimumEvidence: Int) -> String? {
            guard let winner, support[winner.data] ?? 0 >= minimumEvidence, isTrusted(winner.data) else { return nil }
            return winner.data
        }

        /// Whether `code`'s digits need no ISBN to stand: the fit confirmed them, or they were read
        /// with ``Arbiter/undisputedEvidence`` and no rival (a genuine product code, not a misread).
        func isGenuine(_ code: String) -> Bool {
            isConfirmed(code) || (evidence.count == 1 && support[code] ?? 0 >= Arbiter.undisputedEvidence)
        }

        /// Whether the re-measurement confirmed a reading of `code` here.
        func isConfirmed(_ code: String) -> Bool {
            readings.contains { $0.data == code && Arbiter.weight($0) == 3 }
        }

        /// Whether `code` may be judged at all: the re-measurement confirmed it, or decoders read it
        /// on at least ``Arbiter/minimumLines`` scan lines in all — or it cannot be a book number
        /// (no 978/979 prefix: a product code, refused whatever its digits), when one line will do:
        /// the gate keeps misreads from becoming ISBNs, and a product code shown as refused cannot.
        func isTrusted(_ code: String) -> Bool {
            let needed = Arbiter.canBeBookNumber(code) ? Arbiter.minimumLines : 1
            return isConfirmed(code) || (supportLines[code] ?? 0) >= needed
        }

        /// The code that wins a vote digit by digit: at every position where the codes read
        /// here differ, its digit has at least ``winningRatio`` times the evidence of any other
        /// digit there (misreads of one barcode err at different digits, so their errors are
        /// outvoted where whole codes are not). `nil` without such a code among those read.
        var digitVote: (data: String, evidence: Int)? {
            let codes = evidence.filter { $0.value > 0 }
            guard codes.count > 1, let length = codes.keys.first?.count,
                  codes.keys.allSatisfy({ $0.count == length }) else { return nil }
            var votes = [[Character: Int]](repeating: [:], count: length)
            for (code, weight) in codes {
                for (i, digit) in code.enumerated() { votes[i][digit, default: 0] += weight }
            }
            var consensus = ""
            for tally in votes {
                let ranked = tally.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                if ranked.count > 1 && ranked[0].value < Arbiter.winningRatio * ranked[1].value { return nil }
                consensus.append(ranked[0].key)
            }
            guard let support = codes[consensus] else { return nil }
            return (consensus, support)
        }
    }

    /// Groups main symbols (not add-ons) by place and tallies their evidence. Codes that only
    /// the fit read (a contradicting re-decode) enter as readings of their own, pass `"fit"`.
    ///
    /// A reading joins one place: of the places holding a reading it overlaps, the one whose
    /// reading shares the most pixels with it. Places are never joined to each other, so that
    /// neighbouring books, each overlapping a stray reading between them, stay two places (a
    /// chain of overlaps would make the whole photo one barcode). The largest readings come
    /// first (a scan of every line covers the whole symbol, a sparse pass a band of it), so that
    /// the readings of one symbol gather around the reading that covers it; the order does not
    /// depend on the order of the passes.
    static func places(_ symbols: [Symbol]) -> [Place] {
        var readings: [Symbol] = []
        for symbol in symbols where !symbol.symbology.isAddOn {
            readings.append(symbol)
            if case .contradicted(let digits, let lines)? = symbol.verification {
                var fitted = symbol
                fitted.data = digits
                fitted.addOn = nil
                fitted.quality = lines
                fitted.pass = .fit
                fitted.measurement = .profileFit
                fitted.verification = .confirmed(lines: lines)
                readings.append(fitted)
            }
        }
        func area(_ s: Symbol) -> Int { s.box.width * s.box.height }
        let order = readings.indices.sorted { (area(readings[$1]), $0) < (area(readings[$0]), $1) }
        var places: [Place] = []
        for reading in order.map({ readings[$0] }) {
            var best: (index: Int, common: Int)?
            for (index, place) in places.enumerated() {
                for other in place.readings where other.symbology == reading.symbology && other.overlaps(reading) {
                    let common = other.box.commonArea(reading.box)
                    if common > best?.common ?? -1 { best = (index, common) }
                }
            }
            if let best { places[best.index].readings.append(reading) } else { places.append(Place(readings: [reading])) }
        }
        for index in places.indices {
            // Per code and measurement: the strongest weight and the most scan lines of one reading.
            var strongest: [String: [Measurement: (weight: Int, lines: Int)]] = [:]
            for reading in places[index].readings {
                let weight = reading.pass == .fit ? 2 : weight(reading)
                let lines = weight > 0 ? max(1, reading.quality) : 0
                places[index].support[reading.data, default: 0] += weight
                if lines > 0 { places[index].supportLines[reading.data, default: 0] += lines }
                for (measurement, evidence) in measured(reading) {
                    let best = strongest[reading.data]?[measurement] ?? (0, 0)
                    // The scan lines are the reading's own: a confirmation adds none.
                    let own = measurement == reading.measurement ? lines : 0
                    strongest[reading.data, default: [:]][measurement] = (max(best.weight, evidence), max(best.lines, own))
                }
            }
            // A code only contradicted readings gave is a rival with no evidence (a place holding
            // it and the fit's code holds two codes).
            for reading in places[index].readings { places[index].evidence[reading.data] = 0 }
            for (code, measurements) in strongest {
                places[index].evidence[code] = measurements.values.reduce(0) { $0 + $1.weight }
                let lines = measurements.values.reduce(0) { $0 + $1.lines }
                if lines > 0 { places[index].lines[code] = lines }
            }
        }
        return places
    }

    /// The evidence one reading gives its code, per measurement (the table above): its own
    /// measurement's, and the profile fit's when the re-measurement confirmed it.
    static func measured(_ reading: Symbol) -> [(Measurement, Int)] {
        switch reading.measurement {
        case .symbolFit, .profileFit: return [(reading.measurement, 2)]
        case .edges, .characterWidths:
            switch reading.verification {
            case .confirmed?: return [(reading.measurement, 1), (.profileFit, 2)]
            case .contradicted?: return []
            case .unverified?, nil: return [(reading.measurement, 1)]
            }
        }
    }

    /// Support (``Place/support``) with which a refused code that no other reading disputes
    /// counts as a genuine product code rather than a misread of an ISBN: four agreeing readings
    /// (or one the fit confirmed and one more), with no other code read at its place. Not
    /// evidence against a rival: there is none.
    public static let undisputedEvidence = 4

    /// Whether the readings need no more evidence: every place has a winner that the fit of its
    /// bars confirmed (the first look and full scan stop there).
    static func isConfirmed(_ symbols: [Symbol]) -> Bool {
        let all = places(symbols)
        return !all.isEmpty && all.allSatisfy { place in place.winner.map { place.isConfirmed($0.data) } ?? false }
    }

    /// Whether some place's winner cannot be a book number (no 978/979 prefix) and no measurement
    /// of the bar widths confirmed it: a genuine product code, or zbar's total misread of a
    /// defocused ISBN, which passes repeat on the same pixels as often as they like. Only the fit
    /// of the printed symbol tells them apart (``Place/widthVote``).
    static func hasUnmeasuredProductCode(_ symbols: [Symbol]) -> Bool {
        places(symbols).contains { place in
            guard let winner = place.winner, !canBeBookNumber(winner.data) else { return false }
            return !place.isConfirmed(winner.data)
        }
    }

    /// Whether `code` has a book number's prefix (978 or 979, ISO 2108), whatever the policy accepts.
    static func canBeBookNumber(_ code: String) -> Bool { code.hasPrefix("978") || code.hasPrefix("979") }

    /// Whether every place has a winner with at least `minimumEvidence` of support (``Place/support``:
    /// agreeing readings, however made) that may be judged,
    /// and some winner is an accepted ISBN or every winner's digits were confirmed by the fit
    /// or read with ``undisputedEvidence`` and no rival (a genuine product code, not a misread
    /// of an ISBN).
    static func isSettled(_ symbols: [Symbol], minimumEvidence: Int, accepting prefixes: ISBNPrefixes = .only978) -> Bool {
        let all = places(symbols)
        guard !all.isEmpty else { return false }
        var anyISBN = false
        var allGenuine = true
        for place in all {
            guard let winner = place.settledWinner(minimumEvidence: minimumEvidence) else { return false }
            if ISBN.judge(ean: winner, accepting: prefixes).isbn != nil { anyISBN = true }
            if !place.isGenuine(winner) { allGenuine = false }
        }
        return anyISBN || allGenuine
    }

    /// The boxes (pixels of the image read) of the places of `symbols` that are settled on their
    /// own: a winner with at least `minimumEvidence` of support that may be judged, which is an
    /// accepted ISBN, was confirmed by the fit, or was read with ``undisputedEvidence`` and no
    /// rival. A barcode-like region that such a box covers needs no more search; one that none
    /// covers is another book's place, whatever was settled elsewhere in the picture.
    static func settledBoxes(_ symbols: [Symbol], minimumEvidence: Int, accepting prefixes: ISBNPrefixes = .only978) -> [PixelRect] {
        places(symbols).compactMap { place in
            guard let winner = place.settledWinner(minimumEvidence: minimumEvidence),
                  ISBN.judge(ean: winner, accepting: prefixes).isbn != nil || place.isGenuine(winner) else { return nil }
            return place.box
        }
    }

    /// The regions of `regions` that no settled place of `symbols` covers (``settledBoxes(_:minimumEvidence:accepting:)``):
    /// a box covers a region when they share half or more of the smaller of the two (a symbol's
    /// box lies within the map's coarser region around it) and the box is at least a quarter of
    /// the region (a region many times a symbol's size holds more than that symbol: books lying
    /// side by side whose barcodes the map joined into one region).
    static func unsettled(_ regions: [Candidate], by symbols: [Symbol], minimumEvidence: Int,
                          accepting prefixes: ISBNPrefixes = .only978) -> [Candidate] {
        guard !regions.isEmpty else { return [] }
        let settled = settledBoxes(symbols, minimumEvidence: minimumEvidence, accepting: prefixes)
        return regions.filter { region in
            !settled.contains { box in
                let boxArea = box.width * box.height, regionArea = region.rect.width * region.rect.height
                return box.commonArea(region.rect) * 2 >= min(boxArea, regionArea) && boxArea * 4 >= regionArea
            }
        }
    }

    /// Why `winner` outweighs `rival` at `place`, for the reason a misread is refused: three
    /// times the evidence, twice the evidence and ten times the scan lines, or the vote digit by
    /// digit (``Place/byEvidence``).
    static func lead(of winner: String, over rival: String, at place: Place) -> String {
        let evidence = place.evidence[winner] ?? 0, against = place.evidence[rival] ?? 0
        if evidence >= winningRatio * against {
            return "with clearly more evidence (\(evidence) to \(against): independent measurements that agree)"
        }
        let lines = place.lines[winner] ?? 0, linesAgainst = place.lines[rival] ?? 0
        if evidence >= closeRatio * against && lines >= lineRatio * max(1, linesAgainst) {
            return "with more evidence (\(evidence) to \(against): independent measurements that agree) "
                + "and far more scan lines (\(lines) to \(linesAgainst))"
        }
        return "digit by digit: at every digit where the readings here differ, three times as much evidence reads "
            + "\(winner)'s"
    }

    /// The codes of one image with their verdicts, one per code and place, in reading order.
    ///
    /// A place that only recovery passes read is judged only when its winner has at least
    /// `recoveryEvidence` of support (``Place/support``: two agreeing readings by default, or one
    /// the fit confirmed); a lone
    /// unconfirmed recovery reading is dropped, as it is more likely noise than a barcode.
    /// A winner is judged with `prefixes` (978, or 978 and 979), once: nothing judges it again.
    ///
    /// With `printedDigits`, each place the bars leave in doubt (``Place/isInDoubt``) has the
    /// digits printed under it read, as one more measurement (``Place/PrintedDigits``): they
    /// settle a place between codes the bars support, confirm a narrow winner or, naming
    /// another of those codes, leave the place without a winner. They never make a code the bars
    /// do not support a winner, and a place the bars decide is not read.
    static func judge(_ symbols: [Symbol], recoveryEvidence: Int = 1, accepting prefixes: ISBNPrefixes = .only978,
                      printedDigits: PrintedDigitsReadings? = nil) -> [ReadCode] {
        var codes: [ReadCode] = []
        for var place in places(symbols) {
            if let printedDigits, place.isInDoubt, let (box, orientation) = place.symbolBox {
                place.printed = printedDigits.digits(at: box, orientation: orientation)
            }
            let required = place.readings.contains { $0.pass.isFirst } ? 1 : recoveryEvidence
            if let winner = place.winner, place.support[winner.data] ?? 0 < required || !place.isTrusted(winner.data) {
                // Too little to judge: a lone recovery reading, or a reading made on fewer than
                // ``minimumLines`` scan lines that the re-measurement could not confirm (zbar
                // marks those with a one-point box; they are where its misreads come from).
                if place.evidence.count == 1 { continue }
            }
            // One symbol per code: the reading with the best quality, add-on from any reading.
            var kept: [String: Symbol] = [:]
            for reading in place.readings {
                guard var existing = kept[reading.data] else { kept[reading.data] = reading; continue }
                // The place of a code is every box it was read in.
                let place = PixelRect(covering: existing.polygon + reading.polygon)
                if reading.quality > existing.quality || (existing.pass == .fit && reading.pass != .fit) {
                    let addOn = existing.addOn
                    existing = reading
                    if existing.addOn == nil { existing.addOn = addOn }
                } else if existing.addOn == nil {
                    existing.addOn = reading.addOn
                }
                if reading.verification != nil && existing.verification == nil { existing.verification = reading.verification }
                existing.place = place
                kept[reading.data] = existing
            }
            let winner = place.winner.flatMap { place.isTrusted($0.data) ? $0 : nil }
            let winnerVerdict = winner.map { ISBN.judge(ean: $0.data, accepting: prefixes) }
            for (data, symbol) in kept {
                let verdict: Verdict
                var misreadOf: String?
                if let winner, let winnerVerdict, winner.data == data {
                    verdict = winnerVerdict
                } else if let winner {
                    if winnerVerdict?.isbn != nil { misreadOf = winner.data }
                    let printed = place.byPrintedDigits
                    let byWidths = Symbol.differOnlyInBarWidths(winner.data, data)
                        ? "the two differ only in digits that bar widths tell apart (1 and 7, 2 and 8)"
                        : "edge decoders alone read it, which no measurement of the bar widths confirmed"
                    verdict = .rejected(Rejection(.misread, printed == .settles(winner.data)
                        ? "probable misread of \(winner.data): the bars also read \(winner.data), and the digits "
                            + "printed under the barcode read \(winner.data)"
                        : place.widthsSpeak(for: winner.data)
                        ? "probable misread of \(winner.data): \(byWidths), and the fit of the printed symbol, "
                            + "which measures the widths, reads \(winner.data)"
                            + (printed == .agrees(winner.data) ? ", as do the digits printed under it" : "")
                        : "probable misread of \(winner.data), which this barcode reads as "
                        + Self.lead(of: winner.data, over: data, at: place)
                        + (printed == .agrees(winner.data) ? "; the digits printed under it read \(winner.data) too" : "")))
                } else {
                    let others = kept.keys.filter { $0 != data }.sorted()
                    var detail = "the same barcode also read as "
                        + others.joined(separator: ", ") + (others.count == 1 ? "; neither is trusted" : "; none is trusted")
                    if let printed = place.printed {
                        if case .disputes = place.byPrintedDigits, let bars = place.byBars {
                            detail += "; the bars favour \(bars.data), the digits printed under it read \(printed)"
                        } else {
                            detail += "; the digits printed under it read \(printed), "
                                + (kept[printed] == nil ? "which the bars do not read" : "which the bars do not support enough")
                        }
                    }
                    verdict = .rejected(Rejection(.ambiguous, detail, remedy: .retakeOrType))
                }
                var code = ReadCode(symbol: symbol, verdict: verdict, misreadOf: misreadOf)
                code.printedDigits = place.printed
                code.independentlyMeasured = place.readings.contains { reading in
                    reading.data == data && (reading.pass == .symbolFit || Arbiter.weight(reading) == 3)
                }
                codes.append(code)
            }
        }
        codes.sort(by: ScanReport.readingOrder)
        return codes
    }
}
