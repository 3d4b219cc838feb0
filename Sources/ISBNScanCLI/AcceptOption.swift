// SPDX-License-Identifier: Apache-2.0
import ISBN

extension ArgumentParser {
    /// `--accept 979` (on scan, camera, validate): the prefixes accepted as ISBNs; 978 always.
    static func prefixes(from parsed: ParsedArguments) throws(UsageError) -> ISBNPrefixes {
        guard let text = parsed.value("accept") else { return .only978 }
        guard text == "979" || text == "978,979" else {
            throw UsageError("--accept '\(text)' is not 979 (978 is always accepted)")
        }
        return .with979
    }

    /// The `--accept` option's help.
    static let acceptOption = OptionSpec("accept", value: "979", help: """
        Also accept 979 ISBNs (979-8, 979-10...979-13; they have no
        ISBN-10). 978 is always accepted; 979-0 is an ISMN (printed
        music) and stays refused (reason ismn).
        """)
}
