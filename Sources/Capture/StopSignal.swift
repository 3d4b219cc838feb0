internal import CV4L2

/// SIGINT/SIGTERM as a flag: handlers that only record the signal, installed without
/// `SA_RESTART` so a capture blocked in poll(2) wakes up (EINTR) and can release the device
/// before the program exits with status 130.
public enum StopSignal {
    /// Installs the handlers (sigaction). Returns `false` if the kernel refused.
    @discardableResult
    public static func install() -> Bool { isc_install_stop_handlers() == 0 }

    /// The signal received since ``install()`` (SIGINT 2 or SIGTERM 15), or `nil`.
    public static var received: Int32? {
        let signal = isc_stop_signal()
        return signal == 0 ? nil : signal
    }
}
