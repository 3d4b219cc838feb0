// SPDX-License-Identifier: Apache-2.0
import ISBN

/// A code the ISBN layer refused: `{"type", "data", "reason", "detail"}`.
///
/// `reason` is the ``RejectionReason`` raw value as a string, so a new reason needs no change
/// in any formatter.
public struct RefusalRecord: Sendable, Equatable, JSONRecord {
    /// `EAN-13` or `EAN-8`.
    public var type: String
    /// The digits read.
    public var data: String
    /// The reason's name, e.g. `"prefix"`, `"check-digit"`.
    public var reason: String
    /// A sentence saying what failed, e.g. `"check digit is 8, expected 7"`.
    public var detail: String
    /// For a misread of a code accepted at the same place (``ReadCode/misreadOf``): that code.
    /// Such a refusal is listed, never warned about or counted as a refused code: the barcode
    /// was read. In the JSON as `"misread_of"` when set.
    public var misreadOf: String?

    public init(type: String, data: String, reason: String, detail: String, misreadOf: String? = nil) {
        self.type = type
        self.data = data
        self.reason = reason
        self.detail = detail
        self.misreadOf = misreadOf
    }

    /// Whether this refusal says something is wrong (every refusal but a misread of an accepted code).
    public var isProblem: Bool { misreadOf == nil }

    /// `reason: detail`, as in warnings and CSV.
    public var explanation: String { "\(reason): \(detail)" }

    public var json: JSONValue {
        .object(["type": .string(type), "data": .string(data), "reason": .string(reason), "detail": .string(detail)])
            .adding("misread_of", misreadOf.map(JSONValue.string))
    }
}
