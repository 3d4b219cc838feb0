// SPDX-License-Identifier: Apache-2.0
/// What VIDIOC_QUERYCAP says about a device node.
public struct DeviceInfo: Sendable, Equatable {
    /// Driver name (`uvcvideo`).
    public var driver: String
    /// Card name, the device's human name (`HD Pro Webcam C920`).
    public var card: String
    /// Bus location (`usb-0000:00:14.0-1`).
    public var busInfo: String
    /// Single-planar video capture (`V4L2_CAP_VIDEO_CAPTURE`), the kind isbnscan reads.
    public var canCapture: Bool
    /// Streaming I/O with memory-mapped buffers (`V4L2_CAP_STREAMING`).
    public var canStream: Bool
    /// read()/write() I/O (`V4L2_CAP_READWRITE`).
    public var canRead: Bool
}

/// A frame size as VIDIOC_ENUM_FRAMESIZES reports it: one discrete size, or a range.
public enum FrameSize: Sendable, Equatable, CustomStringConvertible {
    case discrete(width: Int, height: Int)
    /// Any size from min to max in steps (continuous: step 1).
    case stepwise(minWidth: Int, maxWidth: Int, stepWidth: Int, minHeight: Int, maxHeight: Int, stepHeight: Int)

    /// `1280x720`, or `320x240...1920x1080` for a range.
    public var description: String {
        switch self {
        case .discrete(let w, let h): return "\(w)x\(h)"
        case .stepwise(let w0, let w1, _, let h0, let h1, _): return "\(w0)x\(h0)...\(w1)x\(h1)"
        }
    }
}

/// One capture format the device offers (VIDIOC_ENUM_FMT) and its frame sizes.
public struct FormatDescription: Sendable, Equatable {
    public var pixelFormat: PixelFormat
    /// The driver's description (`YUYV 4:2:2`, `Motion-JPEG`).
    public var name: String
    /// Whether the format is compressed (`V4L2_FMT_FLAG_COMPRESSED`).
    public var compressed: Bool
    public var sizes: [FrameSize]
}

/// The format the driver settled on (VIDIOC_S_FMT), which may differ from what was asked.
public struct StreamFormat: Sendable, Equatable, CustomStringConvertible {
    public var pixelFormat: PixelFormat
    /// Frame size in pixels.
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next in the (first) plane; 0 for compressed formats.
    public var bytesPerLine: Int
    /// Largest frame in bytes.
    public var sizeImage: Int
    /// Frames per second the driver agreed to (VIDIOC_S_PARM), `nil` when it does not say.
    public var framesPerSecond: Double?

    public init(pixelFormat: PixelFormat, width: Int, height: Int, bytesPerLine: Int, sizeImage: Int,
                framesPerSecond: Double? = nil) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
        self.framesPerSecond = framesPerSecond
    }

    /// `YUYV 1280x720 at 30 fps`.
    public var description: String {
        var text = "\(pixelFormat) \(width)x\(height)"
        if let fps = framesPerSecond {
            text += " at " + (fps == fps.rounded() ? String(Int(fps)) : String((fps * 100).rounded() / 100)) + " fps"
        }
        return text
    }
}
