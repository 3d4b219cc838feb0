// SPDX-License-Identifier: Apache-2.0
import Testing
import ISBN
@testable import Scanning
import TestSupport

/// The one symbology model against GS1's table as printed (General Specifications §5.2.1.2.1,
/// written out here independently of the model's widths).
@Suite struct EANSymbolTests {
    @Test func numberSetsAreGS1s() {
        let a = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
        let b = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111"]
        let c = ["1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100"]
        func text(_ m: [[UInt8]]) -> [String] { m.map { $0.map(String.init).joined() } }
        #expect(text(EANSymbol.modulesA) == a)
        #expect(text(EANSymbol.modulesB) == b)
        #expect(text(EANSymbol.modulesC) == c)
        #expect(EANSymbol.parities[9].map { $0 ? "B" : "A" }.joined() == "ABBABA")
    }

    @Test func theWholeSymbolIs95And67Modules() throws {
        let isbn = try #require(EAN.digitValues("9780306406157"))
        let widths = try #require(EANSymbol.elements(of: isbn))
        #expect(widths.count == 59 && widths.reduce(0, +) == 95)
        #expect(widths == BlurredEAN13.elements("9780306406157"))
        let ean8 = try #require(EAN.digitValues("96385074"))
        #expect(EANSymbol.elements(of: ean8).map { $0.reduce(0, +) } == 67)
        #expect(EANSymbol.elements(of: [1, 2, 3]) == nil)
    }
}
