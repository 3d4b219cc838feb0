// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Spaces requests to one provider at least `1 / requestsPerSecond` apart, measured from the
/// start of one request to the start of the next (ContinuousClock, unaffected by clock changes).
struct RateLimiter {
    let interval: Duration
    private var last: ContinuousClock.Instant?

    init(requestsPerSecond: Double) {
        interval = .nanoseconds(Int64(1e9 / requestsPerSecond))
    }

    /// Sleeps until the next request may start, then counts it as started.
    mutating func wait() {
        let now = ContinuousClock.now
        if let last, now < last + interval { pause(last + interval - now) }
        last = ContinuousClock.now
    }
}

/// Sleeps `duration` (nanosleep, resumed after signals).
func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    guard seconds > 0 || attoseconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
