// SPDX-License-Identifier: Apache-2.0
internal import CSignals

/// SIGINT/SIGTERM as a flag: handlers that only record the signal, installed without
/// `SA_RESTART` so a blocked system call wakes up (EINTR) and a run can release the camera or
/// write its results before the program exits with status 130.
///
/// The flag belongs to the command line alone: library modules take a "should stop" check from
/// their caller (e.g. ``LiveScan/CameraSession``'s `shouldStop`).
enum StopSignal {
    /// Installs the handlers (sigaction). Returns `false` if the kernel refused
    /// (`isc_signals_install_stop_handlers`).
    @discardableResult
    static func install() -> Bool { isc_signals_install_stop_handlers() == 0 }

    /// Names the file to remove when a signal ends the process before it is done with it: a
    /// second SIGINT/SIGTERM after ``install()``, or any other signal that ends a process by
    /// default (SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ;
    /// unless ignored). One file
    /// at a time; `nil` forgets it. The handler calls unlink(2) then dies of the signal.
    /// Returns `false` if the path is over 4096 bytes (then it is not registered).
    @discardableResult
    static func removeOnFatalSignal(_ path: [CChar]?) -> Bool {
        guard let path else { return isc_signals_set_cleanup_path(nil) == 0 }
        return path.withUnsafeBufferPointer { isc_signals_set_cleanup_path($0.baseAddress) } == 0
    }

    /// The signal received since ``install()`` (SIGINT 2 or SIGTERM 15), or `nil`.
    static var received: Int32? {
        let signal = isc_signals_received()
        return signal == 0 ? nil : signal
    }
}
