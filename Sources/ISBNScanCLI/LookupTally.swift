// SPDX-License-Identifier: Apache-2.0
import Records

/// What the lookups of one run gave, for its summary line and exit status; and the provider
/// failures, each said once on stderr (`Error: openlibrary: cannot connect to …`), not once per book.
struct LookupTally {
    var found = 0
    var unknown = 0
    var failed = 0
    /// Provider failures already said.
    private var said: Set<String> = []

    /// Counts `record` and returns the lines it adds on stderr: a `Warning:` for a provider that
    /// failed while a later one knew the book, an `Error:` for a failure that left the book
    /// without an answer; each message once per run.
    mutating func add(_ record: LookupRecord) -> [String] {
        var lines: [String] = []
        for failure in record.failures where said.insert(failure).inserted { lines.append("Warning: \(escaped(failure, json: false))") }
        switch record.outcome {
        case .found: found += 1
        case .notFound: unknown += 1
        case .failed(let messages):
            failed += 1
            for message in messages where said.insert(message).inserted { lines.append("Error: \(escaped(message, json: false))") }
        }
        return lines
    }

    var total: Int { found + unknown + failed }

    /// `3 books looked up: 2 found, 1 known to no provider, 0 failed`.
    var summary: String {
        "\(total) book\(total == 1 ? "" : "s") looked up: \(found) found, \(unknown) known to no provider, \(failed) failed"
    }
}
