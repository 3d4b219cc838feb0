/// The exit statuses of `isbnscan`, documented in `--help` and README.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// An ISBN was found (`scan --all`: any EAN symbol); `validate`: every code is valid.
    case found = 0
    /// An input could not be read (takes precedence over 0 and 4); `validate`: a code is invalid;
    /// `camera`/`devices`: a device could not be used.
    case inputError = 1
    /// The command line is wrong (unknown option, bad value, missing argument).
    case usage = 2
    /// The results could not be written: the `-o` file (full disk, rename failed) or standard
    /// output (full disk, or a reader that closed the pipe, as `| head -n 1` does: then the
    /// run ends quietly). Takes precedence over 0, 1 and 4.
    case outputError = 3
    /// Every input was read, and no ISBN was found in any of them; `camera`: none before
    /// `--timeout`/`--max-frames`; `devices`: no capture device.
    case nothingFound = 4
    /// Interrupted by SIGINT/SIGTERM (`camera`, after releasing the device).
    case interrupted = 130
}

/// `"SIGINT"` / `"SIGTERM"` for messages about an interruption.
func signalName(_ signal: Int32) -> String {
    switch signal {
    case 2: return "SIGINT"
    case 15: return "SIGTERM"
    default: return "signal \(signal)"
    }
}
