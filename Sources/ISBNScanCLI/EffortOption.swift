// SPDX-License-Identifier: Apache-2.0
import Scanning

extension ArgumentParser {
    /// `--effort fast|normal|thorough` (on scan and camera, whose defaults differ): the level
    /// given, or `nil` when the option is absent.
    static func effort(from parsed: ParsedArguments) throws(UsageError) -> Effort? {
        guard let text = parsed.value("effort") else { return nil }
        guard let effort = Effort(rawValue: text) else {
            throw Suggestion.notOneOf(text, option: "--effort", choices: Effort.allCases.map(\.rawValue))
        }
        return effort
    }
}
