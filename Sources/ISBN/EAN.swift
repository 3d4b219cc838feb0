// SPDX-License-Identifier: Apache-2.0
/// Check-digit arithmetic shared by every EAN/UPC number (EAN-13, EAN-8, ISBN-13).
///
/// GS1 General Specifications, section 7.9 (standard check digit calculation for GS1 data
/// structures): starting from the digit next to the check digit and moving left, digits are
/// weighted 3, 1, 3, 1…; the check digit brings the weighted sum to a multiple of 10.
public enum EAN {
    /// The check digit (0…9) for `payload`, the digits *before* the check digit.
    ///
    /// For EAN-13 pass 12 digits, for EAN-8 pass 7. `payload` holds digit values 0…9, not
    /// ASCII. Example: `checkDigit(for: [9,7,8,0,3,0,6,4,0,6,1,5]) == 7`.
    public static func checkDigit(for payload: [UInt8]) -> UInt8 {
        var sum = 0
        for (offsetFromRight, digit) in payload.reversed().enumerated() {
            sum += Int(digit) * (offsetFromRight % 2 == 0 ? 3 : 1)
        }
        return UInt8((10 - sum % 10) % 10)
    }

    /// Whether the last digit of `digits` is the right GS1 check digit for the others.
    public static func hasValidCheckDigit(_ digits: [UInt8]) -> Bool {
        guard let last = digits.last, digits.count >= 2 else { return false }
        return checkDigit(for: Array(digits.dropLast())) == last
    }

    /// Digit values of `text` if it holds ASCII digits only, else `nil`.
    public static func digitValues(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            values.append(byte - UInt8(ascii: "0"))
        }
        return values
    }
}
