// SPDX-License-Identifier: Apache-2.0
import Imaging
import ISBN
import Lookup

/// The options `scan` and `camera` share, parsed once for either: the region read (`--roi`,
/// `--roi-avfoundation`), what is accepted (`--accept`, `--addons`), JSON Lines (`--json`), the
/// catalogue (`--db`) and the background lookup (`--lookup`, `--provider`, `--contact`). Each
/// command keeps its own help texts for them (what they mean for files or for frames).
struct SharedOptions {
    /// The region given, or `nil` for the command's default (the whole image; the band).
    var region: RegionOfInterest?
    /// `--accept 979`.
    var prefixes = ISBNPrefixes.only978
    var addOns = false
    var json = false
    /// `--db`: the catalogue file.
    var db: String?
    /// `--lookup`: how books are looked up, or `nil`.
    var lookup: LookupOptions?

    /// The options of `parsed`; `csv`: the command writes CSV (`scan --csv`), where `--lookup`
    /// needs `--db`.
    /// - Throws: ``UsageError`` naming the option and what is wrong with it.
    init(_ parsed: ParsedArguments, csv: Bool) throws(UsageError) {
        region = try Self.region(from: parsed)
        prefixes = try ArgumentParser.prefixes(from: parsed)
        addOns = parsed.flag("addons")
        json = parsed.flag("json")
        if let db = parsed.value("db") {
            guard !db.isEmpty else { throw UsageError("--db needs a file name") }
            self.db = db
        }
        lookup = try LookupCommand.backgroundOptions(from: parsed, db: db, csv: csv)
    }

    /// The region given with `--roi` or `--roi-avfoundation` (not both), or `nil`.
    static func region(from parsed: ParsedArguments) throws(UsageError) -> RegionOfInterest? {
        if parsed.value("roi") != nil && parsed.value("roi-avfoundation") != nil {
            throw UsageError("give either --roi or --roi-avfoundation, not both")
        }
        for option in ["roi", "roi-avfoundation"] where parsed.values[option, default: []].count > 1 {
            // Taking the last silently would scan a region the user may not have meant.
            throw UsageError("--\(option) given \(parsed.values[option]!.count) times; give one region")
        }
        do {
            if let text = parsed.value("roi") { return try RegionOfInterest(parsing: text) }
        } catch { throw UsageError("--roi: \(error)" + formHint(error, option: "--roi", band: "0.05,0.4,0.9,0.15", percent: "5%,40%,90%,15%")) }
        do {
            if let text = parsed.value("roi-avfoundation") { return try RegionOfInterest(parsingAVFoundation: text) }
        } catch {
            throw UsageError("--roi-avfoundation: \(error)"
                             + formHint(error, option: "--roi-avfoundation", band: "0.4,0.05,0.15,0.9", percent: "40%,5%,15%,90%"))
        }
        return nil
    }

    /// The accepted form, after an error that shows the region was not given in it (a value
    /// that is no number, outside 0...1, such as pixels or percentages without '%', or not four
    /// values): ` (give fractions 0-1 of the image, e.g. --roi 0.05,0.4,0.9,0.15, or percentages,
    /// e.g. --roi 5%,40%,90%,15%)`; nothing after a size or edge error, a percentage out of
    /// range or a mix of both forms (they were given in a form already).
    static func formHint(_ error: RegionError, option: String, band: String, percent: String) -> String {
        switch error {
        case .notFourNumbers, .notANumber, .outOfRange:
            return " (give fractions 0-1 of the image, e.g. \(option) \(band), or percentages, e.g. \(option) \(percent))"
        case .zeroSize, .pastEdge, .percentOutOfRange, .mixed:
            return ""
        }
    }
}
