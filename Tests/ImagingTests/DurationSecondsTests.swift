// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging

/// ``Swift/Duration/seconds``: the one conversion of a `ContinuousClock` duration to seconds
/// that Capture, LiveScan and the CLI share.
@Suite struct DurationSecondsTests {
    @Test func aDurationIsItsSecondsAsADouble() {
        #expect(Duration.seconds(3).seconds == 3)
        #expect(Duration.milliseconds(250).seconds == 0.25)
        #expect(Duration.nanoseconds(1).seconds == 1e-9)
        #expect(Duration.seconds(-2).seconds == -2)
    }
}
