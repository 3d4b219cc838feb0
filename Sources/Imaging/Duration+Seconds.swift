// SPDX-License-Identifier: Apache-2.0
extension Duration {
    /// The duration in seconds, as a `Double`: elapsed times on `ContinuousClock` (a camera
    /// session and its out-of-focus budget, a capture's wait for a frame, a batch run's rate).
    /// Package-wide (Capture, LiveScan and the CLI all depend on Imaging), not public API.
    package var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
