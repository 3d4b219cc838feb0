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

    public init(type: String, data: String, reason: String, detail: String) {
        self.type = type
        self.data = data
        self.reason = reason
        self.detail = detail
    }

    /// `reason: detail`, as in warnings and CSV.
    public var explanation: String { "\(reason): \(detail)" }

    public var json: JSONValue {
        .object(["type": .string(type), "data": .string(data), "reason": .string(reason), "detail": .string(detail)])
    }
}
