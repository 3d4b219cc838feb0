// SPDX-License-Identifier: Apache-2.0
import Capture

import Imaging
import Scanning
#if canImport(Glibc)
import Glibc
#endif

/// One camera session: opens the device, streams, scans each frame's region of interest,
/// confirms codes across frames, and reports ``LiveScanEvent``s; releases the device whatever
/// happens (``CaptureDevice/close()``: stream off, buffers unmapped and freed, file closed).
///
/// Frame → ISBN: ``CaptureDevice`` dequeues a frame, ``FrameDecoder`` copies the region's
/// luminance out of it, ``FrameScanner`` (one zbar scanner for the whole session) reads and
/// judges the codes, ``FrameConfirmer`` reports a code once it has been read in enough frames
/// with no rival at its place. Runs on the calling thread, at the camera's rate.
public final class CameraSession: Sendable {
    public let options: LiveScanOptions
    /// Stop, pause and region, from another thread.
    public let control: SessionControl

    /// How a session ended.
    public enum End: Sendable, Equatable {
        /// A code was confirmed and the session is not continuous.
        case confirmed
        /// ``LiveScanOptions/maxFrames`` frames were received.
        case maxFrames
        /// ``LiveScanOptions/timeout`` passed.
        case timeout
        /// The event handler returned `false`.
        case handlerStopped
        /// A stop was asked (a signal's number, or 0 from ``SessionControl/requestStop(signal:)``).
        case stopped(signal: Int32)
        /// The device failed (reported as ``LiveScanEvent/deviceError(_:)`` first).
        case failed(CaptureError)
    }

    /// Counts of a session.
    public struct Summary: Sendable {
        public var end: End
        /// Frames received.
        public var frames = 0
        /// Frames that could not be turned into pixels.
        public var badFrames = 0
        /// Frames scanned (not paused).
        public var scannedFrames = 0
        /// Seconds from the start of streaming to the end.
        public var seconds = 0.0
        /// User + system CPU seconds of the process over the same time (getrusage).
        public var cpuSeconds = 0.0
        /// CPU seconds of the session's own thread over the same time
        /// (CLOCK_THREAD_CPUTIME_ID): what scanning cost, without other threads (a window).
        public var sessionThreadCPUSeconds = 0.0
        /// Frames judged by following codes confirmed in earlier frames (``FrameScanner/follow(_:in:)``).
        public var trackedFrames = 0
        /// Frames that got the whole scan of the region (of the rest of it, beside the codes
        /// followed: ``FrameScanner/scanRest(of:followed:spans:lines:)``).
        public var fullDecodes = 0
        /// Frames whose sparse lines were scanned only where the barcode map saw bars
        /// (``FrameScanner/narrowedFrames``).
        public var narrowedFrames = 0
        /// Frames handed to the recovery that runs in the spare time (``FrameScanner/recoveryAttempts``).
        public var recoveryAttempts = 0
        /// Frames whose sighting held a code that recovery read (``FrameScanner/recoveredFrames``).
        public var recoveredFrames = 0
    }

    public init(options: LiveScanOptions, control: SessionControl? = nil) {
        self.options = options
        self.control = control ?? SessionControl(region: options.region)
    }

    /// Runs the session to its end.
    ///
    /// - Parameters:
    ///   - stopRequest: asked at least every ``CaptureDevice/stopCheckInterval`` seconds; a
    ///     value ends the session as ``End/stopped(signal:)`` (the command line passes its
    ///     SIGINT/SIGTERM flag). ``SessionControl/requestStop(signal:)`` does the same.
    ///   - handler: gets every event on this thread; returning `false` ends the session after
    ///     this frame (e.g. stdout is closed).
    public func run(stopRequest: () -> Int32? = { nil }, _ handler: (LiveScanEvent) -> Bool) -> Summary {
        let o = options
        let device: CaptureDevice
        do {
            device = try CaptureDevice(path: o.device)
        } catch {
            _ = handler(.deviceError(error))
            return Summary(end: .failed(error))
        }
        defer { device.close() }
        let format: StreamFormat
        do {
            format = try device.configure(format: o.format, width: o.width, height: o.height, fps: o.fps)
            try device.start()
        } catch {
            _ = handler(.deviceError(error))
            return Summary(end: .failed(error))
        }
        var keepGoing = handler(.started(info: device.info, format: format,
                                         region: control.region.pixelRect(imageWidth: format.width, imageHeight: format.height)))

        let scanner = FrameScanner(region: o.region, scannerOptions: ScannerOptions(addOns: o.addOns), effort: o.effort,
                                   lineStep: o.lineStep, accepting: o.prefixes, spareTime: o.spareTime)
        var confirmer = FrameConfirmer(requiredFrames: o.confirmFrames, repeatAfter: o.repeatAfter)
        var refusals = FrameConfirmer(requiredFrames: o.confirmFrames, repeatAfter: .infinity)
        let clock = ContinuousClock()
        let start = clock.now
        func now() -> Double { start.duration(to: clock.now).seconds }
        let cpuStart = Self.cpuSeconds()
        let threadStart = Self.threadCPUSeconds()
        var summary = Summary(end: .handlerStopped)
        let stop = { [control] () -> Int32? in stopRequest() ?? control.stopRequest }

        loop: while keepGoing {
            if let max = o.maxFrames, summary.frames >= max { summary.end = .maxFrames; break }
            var wait = o.frameTimeout
            if let timeout = o.timeout {
                let left = timeout - now()
                if left <= 0 { summary.end = .timeout; break }
                wait = min(wait, left)
            }
            let region = control.region
            let wantsImage = control.takeFrameRequest()
            let taken: (pixels: Result<RegionPixels, CaptureError>, image: LiveFrame?)?
            do {
                taken = try device.withNextFrame(timeout: wait, stopRequest: stop) { frame in
                    let pixels = Result { () throws(CaptureError) -> RegionPixels in
                        try FrameDecoder.luminance(of: frame, region: region, device: o.device, wholeFrame: wantsImage)
                    }
                    var image: LiveFrame?
                    if wantsImage {
                        if let whole = try? pixels.get().decodedFrame { image = LiveFrame(luminance: whole) }
                        else { image = LiveFrame(copying: frame) }
                    }
                    return (pixels, image)
                }
            } catch {
                if case .interrupted(_, let signal) = error { summary.end = .stopped(signal: signal); break }
                _ = handler(.deviceError(error))
                summary.end = .failed(error)
                break
            }
            let time = now()
            guard let taken else {
                if let timeout = o.timeout, time >= timeout { summary.end = .timeout; break loop }
                let error = CaptureError.timeout(device: o.device, seconds: o.frameTimeout)
                _ = handler(.deviceError(error))
                summary.end = .failed(error)
                break
            }
            summary.frames += 1
            let frame = summary.frames
            let paused = control.paused
            switch taken.pixels {
            case .failure(let error):
                summary.badFrames += 1
                keepGoing = handler(.frame(.init(number: frame, time: time, width: format.width, height: format.height,
                                                 region: region.pixelRect(imageWidth: format.width, imageHeight: format.height),
                                                 scanned: !paused, image: taken.image)))
                keepGoing = handler(.badFrame(frame: frame, error: error)) && keepGoing
            case .success(let pixels):
                keepGoing = handler(.frame(.init(number: frame, time: time, width: pixels.frameWidth, height: pixels.frameHeight,
                                                 region: pixels.rect, scanned: !paused, image: taken.image)))
                guard !paused else { continue loop }
                summary.scannedFrames += 1
                let report = scanner.scan(pixels)
                if !report.codes.isEmpty { keepGoing = handler(.read(frame: frame, report: report)) && keepGoing }
                // Every reading of the frame goes to the confirmer (a misread is a rival of the
                // code it misreads); only accepted ISBNs can be reported. Readings the frame's
                // own arbiter already refused as misreads of another code are no rivals of it.
                let accepted = report.accepted
                let sightings = report.codes.filter { $0.verdict.rejection?.reason != .misread }.map(\.symbol)
                let due = Set(confirmer.observe(sightings, reportable: Set(accepted.map(\.symbol.data)), at: time,
                                                window: scanner.sightingWindow(confirmer.window, frames: confirmer.requiredFrames)))
                // A misread of a code accepted at its place is no problem to report.
                let refusedDue = Set(refusals.observe(report.problems.map(\.symbol.data), at: time))
                for code in report.problems where refusedDue.contains(code.symbol.data) {
                    keepGoing = handler(.refused(frame: frame, code: code)) && keepGoing
                }
                let confirmed = accepted.filter { due.contains($0.verdict.isbn!.isbn13) }
                // Confirmed codes are followed cheaply in the next frames while they stay in view.
                if !confirmed.isEmpty { scanner.follow(confirmed, in: pixels) }
                if !confirmed.isEmpty {
                    let codes = o.continuous ? confirmed : [confirmed[0]]
                    keepGoing = handler(.confirmed(frame: frame, time: time, width: pixels.frameWidth,
                                                   height: pixels.frameHeight, report: report, codes: codes)) && keepGoing
                    if !o.continuous { summary.end = .confirmed; break loop }
                }
            }
        }
        summary.trackedFrames = scanner.trackedFrames
        summary.fullDecodes = scanner.fullDecodes
        summary.narrowedFrames = scanner.narrowedFrames
        summary.recoveryAttempts = scanner.recoveryAttempts
        summary.recoveredFrames = scanner.recoveredFrames
        summary.seconds = now()
        summary.cpuSeconds = Self.cpuSeconds() - cpuStart
        summary.sessionThreadCPUSeconds = Self.threadCPUSeconds() - threadStart
        device.close()
        return summary
    }

    /// CPU time of the calling thread, in seconds (clock_gettime(CLOCK_THREAD_CPUTIME_ID)).
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// User + system CPU time of this process, in seconds (getrusage).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
