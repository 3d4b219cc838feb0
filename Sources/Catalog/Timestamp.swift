// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// Times in the catalogue: ISO 8601 in UTC to the millisecond, `2026-11-30T14:03:07.215Z`, which
/// sort as text in time order (and keep two camera runs in one second apart).
public enum Timestamp {
    /// The current time (clock_gettime(CLOCK_REALTIME), gmtime_r).
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return format(secondsSince1970: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec) / 1_000_000)
    }

    /// `seconds` (and `milliseconds`) after 1970-01-01T00:00:00Z, formatted.
    public static func format(secondsSince1970 seconds: Int, milliseconds: Int = 0) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(milliseconds < 100 ? "0" : "")\(milliseconds < 10 ? "0" : "")\(milliseconds)Z"
    }
}
