// SPDX-License-Identifier: Apache-2.0
/// The meaning of a book's 5-digit (EAN-5) add-on: the suggested retail price in the convention
/// publishers use.
///
/// The first digit is the currency, the other four the price in hundredths: `51995` = USD 19.95.
/// Table (Book Industry Study Group, "Bar Code Guidelines for the Retail Book Industry", as listed
/// by Barcode-US, "ISBN Bookland EAN Supplemental Data",
/// http://www.barcode-us.com/info_center/booklandsuppcontent.htm, and Wikipedia, "EAN-5"):
/// 0 and 1 British pounds (GBP), 3 Australian dollars (AUD), 4 New Zealand dollars (NZD),
/// 5 US dollars (USD), 6 Canadian dollars (CAD); a price of 99.99 (`59999`) means "99.99 or
/// more". `90000` is "no suggested retail price"; `90001`–`98999` are for publishers' internal
/// use; `99000`–`99999` are reserved for the industry (`99990` a used book and `99991` a desk
/// copy, National Association of College Stores). Digits 2, 7 and 8 have no currency assigned.
public struct AddOnPrice: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// A price in ``currency``.
        case price
        /// `x9999`: the price is 99.99 or more.
        case priceOrMore = "price-or-more"
        /// `90000`.
        case noPrice = "no-price"
        /// `90001`–`98999`.
        case internalUse = "internal-use"
        /// `99000`–`99999` (`99990` used book, `99991` desk copy).
        case reserved
        /// First digit 2, 7 or 8.
        case unassigned
    }

    public let kind: Kind
    /// ISO 4217 code (`USD`), for ``Kind/price`` and ``Kind/priceOrMore``.
    public let currency: String?
    /// The amount with two decimals (`"19.95"`), for ``Kind/price`` and ``Kind/priceOrMore``.
    public let amount: String?
    /// The 5 digits.
    public let addOn: String

    /// The price in a 5-digit add-on, or `nil` when `addOn` is not 5 digits (an EAN-2 is an issue
    /// number, not a price).
    public init?(addOn: String) {
        guard addOn.utf8.count == 5, let digits = EAN.digitValues(addOn) else { return nil }
        self.addOn = addOn
        let currencies: [UInt8: String] = [0: "GBP", 1: "GBP", 3: "AUD", 4: "NZD", 5: "USD", 6: "CAD"]
        let hundredths = Int(digits[1]) * 1000 + Int(digits[2]) * 100 + Int(digits[3]) * 10 + Int(digits[4])
        if let currency = currencies[digits[0]] {
            self.currency = currency
            self.amount = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
            kind = hundredths == 9999 ? .priceOrMore : .price
        } else {
            currency = nil
            amount = nil
            let value = Int(addOn)!
            switch value {
            case 90000: kind = .noPrice
            case 90001...98999: kind = .internalUse
            case 99000...99999: kind = .reserved
            default: kind = .unassigned
            }
        }
    }

    /// `USD 19.95`, `USD 99.99 or more`, `no suggested retail price`, `internal use`,
    /// `reserved (used book)`, `no currency assigned to 7`.
    public var description: String {
        switch kind {
        case .price: return "\(currency!) \(amount!)"
        case .priceOrMore: return "\(currency!) \(amount!) or more"
        case .noPrice: return "no suggested retail price"
        case .internalUse: return "internal use"
        case .reserved: return addOn == "99990" ? "reserved (used book)" : addOn == "99991" ? "reserved (desk copy)" : "reserved"
        case .unassigned: return "no currency assigned to \(addOn.prefix(1))"
        }
    }
}
