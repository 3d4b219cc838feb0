// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging

@Suite struct StringDecimalsTests {
    @Test(arguments: [
        (12.345, 1, Double.infinity, "12.3"), (12.35, 2, .infinity, "12.35"), (0.05, 2, .infinity, "0.05"),
        (0.004, 2, .infinity, "0.00"), (3.0, 2, .infinity, "3.00"), (9.96, 1, .infinity, "10.0"),
        (7.25, 1, 10, "7.3"), (10.0, 1, 10, "10"), (99.4, 1, 10, "99"), (99.96, 1, 100, "100.0"),
        (100.4, 1, 100, "100"), (1234.5, 1, 100, "1235"), (0, 1, 100, "0.0"),
    ])
    func decimalsThenWholeNumbers(x: Double, places: Int, wholeFrom: Double, expected: String) {
        #expect(String(x, places: places, wholeFrom: wholeFrom) == expected)
    }

    /// The formatters it replaced: the CLI's rates (`String(Double(tenths) / 10)` under 100)
    /// and seconds (under 10), and the one- and two-decimal ones of the camera and preview.
    @Test func sameTextAsTheFormattersItReplaced() {
        func oldRate(_ r: Double, _ limit: Double) -> String {
            r >= limit ? String(Int(r.rounded())) : String(Double(Int((r * 10).rounded())) / 10)
        }
        func oldFormat1(_ x: Double) -> String {
            let tenths = Int((x * 10).rounded())
            return "\(tenths / 10).\(abs(tenths % 10))"
        }
        func oldFormat2(_ x: Double) -> String {
            let hundredths = Int((x * 100).rounded())
            let fraction = abs(hundredths % 100)
            return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
        }
        var samples: [Double] = (0...2000).map { Double($0) / 20 }
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            samples.append(Double(state >> 11) / Double(1 << 53) * 150)
        }
        for x in samples {
            #expect(String(x, places: 1, wholeFrom: 100) == oldRate(x, 100), "rate \(x)")
            #expect(String(x, places: 1, wholeFrom: 10) == oldRate(x, 10), "seconds \(x)")
            #expect(String(x, places: 1) == oldFormat1(x), "format1 \(x)")
            #expect(String(x, places: 2) == oldFormat2(x), "format2 \(x)")
        }
    }
}
