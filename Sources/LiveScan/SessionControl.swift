// SPDX-License-Identifier: Apache-2.0
import Imaging
import Scanning
import Synchronization

/// Steers a running ``CameraSession`` from another thread (a preview window's keys): stop,
/// pause, change the region, ask for a frame to show. Every property is read by the session
/// once per frame.
public final class SessionControl: Sendable {
    private struct State {
        var stop: Int32?
        var paused = false
        var region: RegionOfInterest
        var wantsFrame = false
    }
    private let state: Mutex<State>

    public init(region: RegionOfInterest) {
        state = Mutex(State(region: region))
    }

    /// Asks the session to end as if interrupted: `signal` is SIGINT's or SIGTERM's number, or
    /// 0 (the default) for a stop asked by the program (a window's `q`). The first request wins.
    public func requestStop(signal: Int32 = 0) {
        state.withLock { if $0.stop == nil { $0.stop = signal } }
    }

    /// The stop asked for, if any.
    public var stopRequest: Int32? { state.withLock { $0.stop } }

    /// While `true`, frames are still taken (and shown) but not scanned.
    public var paused: Bool {
        get { state.withLock { $0.paused } }
        set { state.withLock { $0.paused = newValue } }
    }

    /// The region scanned from the next frame on (fractions, origin top-left).
    public var region: RegionOfInterest {
        get { state.withLock { $0.region } }
        set { state.withLock { $0.region = newValue } }
    }

    /// Asks for a copy of the next frame (in ``LiveScanEvent/frame(_:)``'s `image`); one
    /// request, one copy, so frames are copied only at the viewer's rate.
    public func requestFrame() { state.withLock { $0.wantsFrame = true } }

    /// Whether a frame was asked for; clears the request.
    func takeFrameRequest() -> Bool {
        state.withLock { wanted in
            defer { wanted.wantsFrame = false }
            return wanted.wantsFrame
        }
    }
}
