internal import CV4L2

/// SIGINT/SIGTERM as a flag: handlers that only record the signal, installed without
/// `SA_RESTART` so a capture blocked in poll(2) wakes up (EINTR) and can release the device
/// before the program exits with status 130.
public enum StopSignal {
    /// Installs the handlers (sigaction). Returns `false` if the kernel refused.
    @discardableResult
    public static func install() -> Bool { isc_install_stop_handlers() == 0 }

    /// Names the file to remove when a signal ends the process before it is done with it: a
    /// second SIGINT/SIGTERM after ``install()``, or SIGHUP/SIGQUIT (unless ignored). One file
    /// at a time; `nil` forgets it. The handler calls unlink(2) then dies of the signal.
    /// Returns `false` if the path is over 4096 bytes (then it is not registered).
    @discardableResult
    public static func removeOnFatalSignal(_ path: [CChar]?) -> Bool {
        guard let path else { return isc_set_cleanup_path(nil) == 0 }
        return path.withUnsafeBufferPointer { isc_set_cleanup_path($0.baseAddress) } == 0
    }

    /// The signal received since ``install()`` (SIGINT 2 or SIGTERM 15), or `nil`.
    public static var received: Int32? {
        let signal = isc_stop_signal()
        return signal == 0 ? nil : signal
    }
}
