// SPDX-License-Identifier: Apache-2.0
import Imaging
import Capture
import ISBN
import Scanning

/// What a camera session does: the device and stream to ask for, the region scanned, how a
/// code is confirmed and when the session ends. Each field's default is the one of
/// `isbnscan camera`.
public struct LiveScanOptions: Sendable {
    /// The V4L2 capture device. Default `/dev/video0`.
    public var device = "/dev/video0"
    /// Frame size to ask for, in pixels (the driver picks the nearest it has). Default 1280×720.
    public var width = 1280
    public var height = 720
    /// Frames per second to ask for. Default 30.
    public var fps = 30
    /// Pixel format; `nil` (the default) takes the first of ``PixelFormat/preferred`` offered.
    public var format: PixelFormat?
    /// The part of each frame scanned (fractions, origin top-left). Default ``RegionOfInterest/band``.
    /// ``SessionControl/region`` can change it while the session runs.
    public var region = RegionOfInterest.band
    /// `false` (the default): the session ends after the first confirmed code.
    public var continuous = false
    /// Seconds after which the session ends; `nil` (the default) for no limit.
    public var timeout: Double?
    /// Frames a code must be read in within one second to be confirmed (``FrameConfirmer``). Default 2.
    public var confirmFrames = 2
    /// Seconds out of view before a code is confirmed again (continuous sessions). Default 3.
    public var repeatAfter = 3.0
    /// Seconds without a frame after which the device counts as stalled. Default 5.
    public var frameTimeout = 5.0
    /// Frames after which the session ends; `nil` (the default) for no limit.
    public var maxFrames: Int?
    /// Decoding work per frame. Default ``Effort/fast`` (one zbar pass; the next frame is the next try).
    public var effort = Effort.fast
    /// With ``Effort/fast``: each frame scans every n-th line of the region, the next frame
    /// the lines after them (``FrameScanner/lineStep``). Default 2; 1 scans every row and
    /// column of every frame.
    public var lineStep = FrameScanner.defaultLineStep
    /// With ``Effort/fast``: where the recovery of frames the cheap scan cannot read runs
    /// (``FrameScanner/SpareTimeMode``). Default ``FrameScanner/SpareTimeMode/background``.
    public var spareTime = FrameScanner.SpareTimeMode.background
    /// Read EAN-5/EAN-2 add-ons too. Default `false`.
    public var addOns = false
    /// The ISBN prefixes accepted. Default 978 only.
    public var prefixes = ISBNPrefixes.only978

    public init() {}
}
