// SPDX-License-Identifier: Apache-2.0
/// JSON Lines output: each record's ``JSONRecord/json`` on one line, keys in the documented order.
public struct JSONLinesFormatter: Sendable {
    public init() {}

    /// The record's line, ending in `\n`.
    public func format(_ record: some JSONRecord) -> String { record.json.encoded + "\n" }
}
