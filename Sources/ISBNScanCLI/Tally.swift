// SPDX-License-Identifier: Apache-2.0
import Batch
import Catalog
import Imaging
import Records

/// Counts over a run: what the summary line says and which exit status results.
struct Tally {
    var files = 0
    var withISBN = 0
    var withoutCode = 0
    /// Files whose codes were all refused (no ISBN among them).
    var refusedOnly = 0
    var rejectedCodes = 0
    var errors = 0
    /// Files in folders left out because they are no image.
    var skipped = 0
    var found = false

    /// Files taken from the catalogue (`--db`: unchanged since their last scan).
    var fromCatalog = 0

    mutating func add(_ record: FileRecord, all: Bool) {
        files += 1
        guard record.wasRead else { errors += 1; return }
        let hasISBN = !record.isbns.isEmpty
        if hasISBN { withISBN += 1 }
        if record.symbols.isEmpty { withoutCode += 1 }
        if !hasISBN && !record.symbols.isEmpty { refusedOnly += 1 }
        rejectedCodes += record.rejected.filter(\.isProblem).count
        if hasISBN || (all && !record.symbols.isEmpty) { found = true }
    }

    /// Counts a file the catalogue holds from an earlier run as if it had been scanned now.
    mutating func add(_ stored: Catalog.StoredFile, all: Bool) {
        files += 1
        fromCatalog += 1
        switch stored.status {
        case "error": errors += 1; return
        case "isbn": withISBN += 1
        case "no-barcode": withoutCode += 1
        default: refusedOnly += 1
        }
        rejectedCodes += stored.refusedCount
        if stored.status == "isbn" || (all && stored.symbolCount > 0) { found = true }
    }

    var exitStatus: ExitStatus { errors > 0 ? .inputError : (found ? .found : .nothingFound) }

    /// `29 files scanned, 83 not reached` of `inputs` (the files given and found in folders):
    /// what a signal stopped. Not reached are the files the scan would have scanned
    /// (``BatchScanner/willBeLeftOut(_:)`` leaves out the non-images, such as the `.txt` beside
    /// the photos, whether met or not) less those done (scanned, or taken from the catalogue).
    func interruptedCounts(inputs: [BatchInput]) -> String {
        let toScan = inputs.count { !BatchScanner.willBeLeftOut($0) }
        return "\(files) file\(files == 1 ? "" : "s") scanned, \(max(0, toScan - files)) not reached"
    }

    /// `scanned 4 files: 2 with an ISBN, 1 with refused codes only, 0 without any barcode, 1 unreadable
    /// (3 codes refused; 0.4 s, 10 files/s)`: the four file counts add up to the files scanned;
    /// then what the walk left out, if anything.
    func summary(walk: FolderWalk, seconds: Double) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var line = "scanned \(plural(files, "file")): \(withISBN) with an ISBN, \(refusedOnly) with refused codes only, "
            + "\(withoutCode) without any barcode, \(errors) unreadable"
        line += " (\(plural(rejectedCodes, "code")) refused; \(String(seconds, places: 1, wholeFrom: 10)) s, "
            + "\(formatRate(seconds > 0 ? Double(files - fromCatalog) / seconds : 0)) files/s)"
        if fromCatalog > 0 {
            line += "; \(plural(fromCatalog, "file")) unchanged since an earlier run, counted from the catalogue"
        }
        var left: [String] = []
        if skipped > 0 { left.append(plural(skipped, "non-image file")) }
        if walk.skippedHidden > 0 { left.append("\(walk.skippedHidden) hidden (use --hidden)") }
        if walk.skippedFolders > 0 { left.append(plural(walk.skippedFolders, "subfolder") + " (use -r)") }
        if walk.skippedSystem > 0 {
            left.append(plural(walk.skippedSystem, "system folder") + " (/proc, /sys, /dev or /: name them to scan them)")
        }
        if walk.skippedSpecial > 0 { left.append(plural(walk.skippedSpecial, "special file") + " (FIFO, socket, device)") }
        if !left.isEmpty { line += "; left out " + left.joined(separator: ", ") }
        return line
    }
}
