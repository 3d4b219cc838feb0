// SPDX-License-Identifier: Apache-2.0
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
