// SPDX-License-Identifier: Apache-2.0
import Imaging
import Capture
import Scanning

/// What a ``CameraSession`` reports, in order, on its own thread. The command line prints
/// these; a preview window draws them. Polygons and rectangles are in pixels of the whole
/// frame, origin top-left, x right, y down; times are seconds since the session started
/// (monotonic clock).
public enum LiveScanEvent: Sendable {
    /// The device is open and streaming: what it is, the format it agreed to, and the region
    /// scanned in frame pixels.
    case started(info: DeviceInfo, format: StreamFormat, region: PixelRect)
    /// A frame arrived (before it is scanned).
    case frame(FrameInfo)
    /// The codes read in one frame, judged with the session's accepted prefixes; only frames
    /// in which something was read.
    case read(frame: Int, report: ScanReport)
    /// Codes confirmed now (read in enough frames, no rival): `codes` are the ones to report
    /// (the first only when the session is not continuous); `report` is the frame's.
    case confirmed(frame: Int, time: Double, width: Int, height: Int, report: ScanReport, codes: [ReadCode])
    /// A refused code, once per visit (when it would have been confirmed had it been valid).
    case refused(frame: Int, code: ReadCode)
    /// A frame that could not be turned into pixels (skipped; the session goes on).
    case badFrame(frame: Int, error: CaptureError)
    /// The device failed: the session ends (opening, configuring, unplugged, stalled).
    case deviceError(CaptureError)

    /// One frame as it arrived.
    public struct FrameInfo: Sendable {
        /// Frames received so far, from 1.
        public var number: Int
        /// Seconds since the session started.
        public var time: Double
        /// The whole frame's size in pixels.
        public var width: Int
        public var height: Int
        /// The region scanned in this frame, in frame pixels.
        public var region: PixelRect
        /// `false` while the session is paused (``SessionControl/paused``): the frame is not scanned.
        public var scanned: Bool
        /// A copy of the frame for display, when one was asked for (``SessionControl/requestFrame()``).
        public var image: LiveFrame?
    }
}
