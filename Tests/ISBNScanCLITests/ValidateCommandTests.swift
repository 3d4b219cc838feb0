// SPDX-License-Identifier: Apache-2.0
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
        let run = try isbnscan(["validate", "9780306406157", "9780306406158", "9791032305690", "96385074", "979-0-2306-7118-7", ""])
        #expect(run.status == 1)
        #expect(run.stdout == """
            9780306406157: valid ISBN-13 9780306406157 (ISBN-10 0306406152), 978-0-306-40615-7 (978-0 English language)
            9780306406158: invalid, check-digit: check digit is 8, expected 7
            9791032305690: refused, prefix: prefix 979 is not 978: ISBN-13 in the 979 range
            96385074: invalid, length: 8 digits, an ISBN has 10 or 13
            979-0-2306-7118-7: refused, ismn: prefix 979-0 is an ISMN (printed music), not an ISBN
            : invalid, length: empty code, an ISBN has 10 or 13 digits

            """)
    }

    @Test func typographicDashesAndLabelsAreAccepted() throws {
        let run = try isbnscan(["validate", "978\u{2010}0\u{2010}306\u{2010}40615\u{2010}7", "978\u{2013}0\u{2013}306\u{2013}40615\u{2013}7",
                                "ISBN10: 0306406152"])
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "valid ISBN-13 9780306406157").count == 4)
    }

    /// A file holding `text`, for standard input.
    func input(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "isbnscan-codes-\(UUID().uuidString).txt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func codesAreReadFromStandardInput() throws {
        let codes = try input("978-0-306-40615-7\r\n\n  0306406152 \n9780306406158")
        defer { try? FileManager.default.removeItem(atPath: codes) }
        let expected = """
            978-0-306-40615-7: valid ISBN-13 9780306406157 (ISBN-10 0306406152), 978-0-306-40615-7 (978-0 English language)
            0306406152: valid ISBN-13 9780306406157 (ISBN-10 0306406152), 978-0-306-40615-7 (978-0 English language)
            9780306406158: invalid, check-digit: check digit is 8, expected 7

            """
        let dash = try isbnscan(["validate", "-"], stdinFile: codes)
        #expect(dash.status == 1)
        #expect(dash.stdout == expected)
        #expect(dash.stderr == "")
        // No code given and standard input is not a terminal: the same.
        let piped = try isbnscan(["validate"], stdinFile: codes)
        #expect(piped.status == 1)
        #expect(piped.stdout == expected)
        // Arguments and '-' mix, in the order given.
        let good = try input("0-8044-2957-X\n")
        defer { try? FileManager.default.removeItem(atPath: good) }
        let mixed = try isbnscan(["validate", "--json", "0306406152", "-"], stdinFile: good)
        #expect(mixed.status == 0)
        let inputs = mixed.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["input"] as? String
        }
        #expect(inputs == ["0306406152", "0-8044-2957-X"])
    }

    @Test func standardInputWithoutCodesIsAUsageError() throws {
        let blank = try input("\n  \n")
        defer { try? FileManager.default.removeItem(atPath: blank) }
        for arguments in [["validate", "-"], ["validate"]] {
            let run = try isbnscan(arguments, stdinFile: blank)
            #expect(run.status == 2)
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("Error: no code given (standard input held none)\n"))
        }
        let twice = try isbnscan(["validate", "-", "-"], stdinFile: blank)
        #expect(twice.status == 2)
        #expect(twice.stderr.hasPrefix("Error: '-' (standard input) can be given only once\n"))
        // On a terminal (script(1) gives a pseudo-terminal), no code given is not a wait for input.
        let terminal = try isbnscan(["-qec", "'\(isbnscanBinary)' validate", "/dev/null"], executable: "/usr/bin/script")
        #expect(terminal.stdout.hasPrefix("Error: no code given (give codes as arguments, or '-' to read them from standard input, one per line)"))
    }

    @Test func anUnreadableStandardInputIsAnError() throws {
        let run = try isbnscan(["validate", "-"], stdinFile: "/")
        #expect(run.status == 1)
        #expect(run.stderr == "Error: standard input: Is a directory\n")
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
