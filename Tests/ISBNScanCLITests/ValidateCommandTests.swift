import Foundation
import Testing

@Suite struct ValidateCommandTests {
    @Test func validCodesExitZero() throws {
        let run = try isbnscan(["validate", "978-0-306-40615-7", "0-8044-2957-X"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            978-0-306-40615-7: valid ISBN-13 9780306406157 (ISBN-10 0306406152), 978-0-306-40615-7 (978-0 English language)
            0-8044-2957-X: valid ISBN-13 9780804429573 (ISBN-10 080442957X), 978-0-8044-2957-3 (978-0 English language)

            """)
    }

    @Test func anyInvalidCodeExitsOne() throws {
        let run = try isbnscan(["validate", "9780306406157", "9780306406158", "9791032305690", "96385074"])
        #expect(run.status == 1)
        #expect(run.stdout == """
            9780306406157: valid ISBN-13 9780306406157 (ISBN-10 0306406152), 978-0-306-40615-7 (978-0 English language)
            9780306406158: invalid, check-digit: check digit is 8, expected 7
            9791032305690: refused, prefix: prefix 979 is not 978: ISBN-13 in the 979 range
            96385074: invalid, length: 8 digits, an ISBN-13 has 13

            """)
    }

    @Test func typographicDashesAndLabelsAreAccepted() throws {
        let run = try isbnscan(["validate", "978\u{2010}0\u{2010}306\u{2010}40615\u{2010}7", "978\u{2013}0\u{2013}306\u{2013}40615\u{2013}7",
                                "ISBN10: 0306406152"])
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "valid ISBN-13 9780306406157").count == 4)
    }

    @Test func jsonVerdicts() throws {
        let run = try isbnscan(["validate", "--json", "0306406152", "97803064X6157"])
        let lines = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines[0]["valid"] as? Bool == true)
        #expect(lines[0]["isbn13"] as? String == "9780306406157")
        #expect(lines[1]["valid"] as? Bool == false)
        #expect(lines[1]["reason"] as? String == "non-digit")
    }
}
