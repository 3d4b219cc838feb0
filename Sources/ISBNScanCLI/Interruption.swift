#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The signal that asked the run to stop (SIGINT from Ctrl-C, or SIGTERM), 0 until one arrives.
private let receivedSignal = Atomic<Int32>(0)

/// Turns SIGINT/SIGTERM into a flag a long run polls, so it can stop cleanly: finish what is in
/// flight, flush results, print the summary and exit 130. A second signal of either kind
/// ends the process at once (the handlers are reset to the default after the first).
enum Interruption {
    /// Installs the handlers (`sigaction(2)`, without `SA_RESTART`, so a blocking call returns `EINTR`).
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            receivedSignal.store(signal, ordering: .relaxed)
            // Async-signal-safe: a second Ctrl-C kills the process.
            Glibc.signal(SIGINT, SIG_DFL)
            Glibc.signal(SIGTERM, SIG_DFL)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started us with the signals blocked (the mask is inherited
        // through exec); unblock them, or Ctrl-C would stay pending for ever.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// The signal received since ``install()``, or `nil`.
    static var signal: Int32? {
        let value = receivedSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// `"SIGINT"` / `"SIGTERM"` for messages.
    static func name(_ signal: Int32) -> String { signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "signal \(signal)" }
}
