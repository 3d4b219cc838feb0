// SPDX-License-Identifier: Apache-2.0
internal import CSignals

/// The exit statuses of `isbnscan`, documented in `--help` and README.
///
/// Two cases share status 0: ``found`` says a command found what it looked for, ``success``
/// that a command without a search (help, `--version`, `validate`) did its job.
public enum ExitStatus: Sendable, Equatable, CaseIterable {
    /// Help or `--version` was printed; `validate`: every code is valid. Status 0.
    case success
    /// An ISBN was found (`scan --all`: any EAN symbol); `devices`: a capture device was listed.
    /// Status 0.
    case found
    /// An input could not be read (takes precedence over 0 and 4); `validate`: a code is invalid;
    /// `camera`/`devices`: a device could not be used. Status 1.
    case inputError
    /// The command line is wrong (unknown option, bad value, missing argument). Status 2.
    case usage
    /// The results could not be written: the `-o` file (full disk, rename failed) or standard
    /// output (full disk, or a reader that closed the pipe, as `| head -n 1` does: then the
    /// run ends quietly). Takes precedence over 0, 1 and 4. Status 3.
    case outputError
    /// Every input was read, and no ISBN was found in any of them; `camera`: none before
    /// `--timeout`/`--max-frames`; `devices`: no capture device. Status 4.
    case nothingFound
    /// Interrupted by SIGINT/SIGTERM (`camera`, after releasing the device). Status 130.
    case interrupted

    /// The number the process exits with.
    public var rawValue: Int32 {
        switch self {
        case .success, .found: return 0
        case .inputError: return 1
        case .usage: return 2
        case .outputError: return 3
        case .nothingFound: return 4
        case .interrupted: return 130
        }
    }
}

/// `"SIGINT"` / `"SIGTERM"` (else `"signal <n>"`) for messages about an interruption: the names
/// are CSignals' (`isc_signal_name`), which Capture's error text uses too.
func signalName(_ signal: Int32) -> String {
    isc_signal_name(signal).map { String(cString: $0) } ?? "signal \(signal)"
}
