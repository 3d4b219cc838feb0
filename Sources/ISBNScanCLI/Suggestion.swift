// SPDX-License-Identifier: Apache-2.0
import Records

/// "Did you mean …?" for a mistyped option, subcommand or action, as git and cargo do: the
/// nearest known name by edit distance, when it is near enough to be a typo.
enum Suggestion {
    /// The name in `candidates` nearest to `typed`: the fewest insertions, deletions,
    /// substitutions and swaps of two neighbouring letters (optimal string alignment distance),
    /// case ignored (`CSV` → `csv`, `mjpeg` → `MJPG`), at most a third of `typed`'s length (at
    /// least 1, at most 3); the first of equals. Else the one candidate that `typed` begins
    /// (`rec` → `recursive`). `nil` when none fits.
    static func nearest(to typed: String, in candidates: [String]) -> String? {
        let limit = min(3, max(1, typed.count / 3))
        let folded = typed.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = Self.distance(folded, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        if let best { return best.name }
        let extended = candidates.filter { !typed.isEmpty && $0 != typed && $0.lowercased().hasPrefix(folded) }
        return extended.count == 1 ? extended[0] : nil
    }

    /// `message` followed by " (did you mean '<prefix><nearest>'?)" when there is a nearest name.
    static func appended(to message: String, typed: String, in candidates: [String], prefix: String = "") -> String {
        guard let name = nearest(to: typed, in: candidates) else { return message }
        return message + " (did you mean '\(prefix)\(name)'?)"
    }

    /// The error for a value of `option` that is not one of its fixed `choices`: `--format
    /// 'goodread' is not one of csv, jsonl, … (did you mean 'goodreads'?)`, the nearest choice
    /// found as for a mistyped option; a control character typed is shown escaped (``escaped(_:json:)``).
    static func notOneOf(_ typed: String, option: String, choices: [String]) -> UsageError {
        UsageError(appended(to: "\(option) '\(escaped(typed, json: false))' is not one of \(choices.joined(separator: ", "))", typed: typed, in: choices))
    }

    /// The optimal string alignment distance between `a` and `b`, by characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the dynamic-programming table: two back (for swaps), previous, current.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], twoBack[j - 2] + 1)
                }
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
