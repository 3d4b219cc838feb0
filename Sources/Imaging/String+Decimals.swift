// SPDX-License-Identifier: Apache-2.0
extension String {
    /// `x` with `places` decimals (1 or more), rounded half away from zero: `12.3`, `0.05`;
    /// from `wholeFrom` on, a whole number instead (`123`). The one decimal formatter of the
    /// package, for rates, durations and frame rates (the CLI's summaries and progress bar,
    /// the preview's status strip); not public API.
    ///
    /// `String(12.345, places: 2)` is `"12.35"`; `String(99.4, places: 1, wholeFrom: 10)` is `"99"`.
    package init(_ x: Double, places: Int, wholeFrom: Double = .infinity) {
        precondition(places >= 1, "String(_:places:): \(places) decimal places")
        if x >= wholeFrom {
            self = String(Int(x.rounded()))
            return
        }
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((x * Double(scale)).rounded())
        let fraction = String(abs(scaled % scale))
        self = "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
