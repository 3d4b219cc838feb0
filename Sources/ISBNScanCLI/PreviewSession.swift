// SPDX-License-Identifier: Apache-2.0
import Imaging
import LiveScan
import Preview
import Scanning
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `camera --preview`: the camera session on a thread of its own (scanning at the camera's
/// rate), the window on this thread (drawing at the display's rate, at most
/// ``displayRate`` pictures per second, only when something changed), keys steering the
/// session through its ``SessionControl``.
enum PreviewSession {
    /// Pictures per second at most.
    static let displayRate = 30.0

    static func run(reporter: CameraReporter) -> ExitStatus {
        let settings = reporter.settings
        let window: PreviewWindow
        do {
            window = try PreviewWindow(title: "isbnscan camera — \(settings.device)", frameWidth: settings.width,
                                       frameHeight: settings.height)
        } catch {
            reporter.stderr.write("Error: \(error.description)\n")
            return .inputError
        }
        let control = SessionControl(region: settings.region)
        let session = CameraSession(options: settings.options, control: control)
        let result = Mutex<CameraSession.Summary?>(nil)
        control.requestFrame()
        guard let worker = Worker({
            let summary = session.run(stopRequest: { StopSignal.received }) { reporter.handle($0) }
            result.withLock { $0 = summary }
        }) else {
            reporter.stderr.write("Error: cannot start the camera thread\n")
            return .inputError
        }
        // The region `r` switches to and from: the whole frame, or the band when --roi was the whole frame.
        let other = settings.region.isFull ? RegionOfInterest.band : RegionOfInterest.full
        var shownFrame = -1
        var dirty = true
        let tick = 1 / displayRate
        // The reporter writes to stderr from the session's thread only: an error here waits for the join.
        var drawError: PreviewError?
        while result.withLock({ $0 == nil }) {
            let started = ContinuousClock.now
            for input in window.poll() {
                switch input {
                case .quitKey, .closed:
                    control.requestStop()
                case .togglePause:
                    let paused = !control.paused
                    control.paused = paused
                    reporter.preview?.withLock { $0.paused = paused }
                case .undo:
                    reporter.requestUndo()
                case .toggleRegion:
                    let next = control.region == other ? settings.region : other
                    control.region = next
                    reporter.preview?.withLock { $0.scanRegion = next }
                }
                dirty = true
            }
            let scene = reporter.preview?.withLock { state -> PreviewScene? in
                guard dirty || state.frameNumber != shownFrame else { return nil }
                shownFrame = state.frameNumber
                return state.scene
            } ?? nil
            if let scene, drawError == nil {
                do { try window.draw(scene) } catch {
                    drawError = error
                    control.requestStop()
                }
                dirty = false
                control.requestFrame()
            }
            let left = tick - (ContinuousClock.now - started).seconds
            if left > 0 { usleep(UInt32(left * 1_000_000)) }
        }
        worker.join()
        let summary = result.withLock { $0! }
        if let drawError { reporter.stderr.write("Error: \(drawError.description)\n") }
        // The last picture: what the session saw last (outlines are timed in session time).
        if let path = settings.previewSnapshot, let scene = reporter.preview?.withLock({ $0.scene }) {
            do {
                try PreviewWindow.writePPM(try window.drawAndRead(scene), to: path)
            } catch {
                reporter.stderr.write("Error: \(error.description)\n")
            }
        }
        return reporter.finish(summary)
    }
}
