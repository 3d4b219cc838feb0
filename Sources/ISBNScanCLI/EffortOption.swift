import Scanning

extension ArgumentParser {
    /// `--effort fast|normal|thorough` (on scan and camera, whose defaults differ): the level
    /// given, or `nil` when the option is absent.
    static func effort(from parsed: ParsedArguments) throws(UsageError) -> Effort? {
        guard let text = parsed.value("effort") else { return nil }
        guard let effort = Effort(rawValue: text) else {
            throw UsageError("--effort '\(text)' is not one of \(Effort.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return effort
    }
}
