// SPDX-License-Identifier: Apache-2.0
internal import CSignals
#if canImport(Glibc)
import Glibc
#endif

/// Why a capture device could not be used; each case names the device (its path) and, where
/// a system call failed, the operation and the C error number. ``description`` is the line
/// the command line prints after `Error: `.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such file (ENOENT) or no device behind the node (ENXIO/ENODEV at open).
    case noSuchDevice(device: String)
    /// open(2) refused (EACCES/EPERM): the user is usually not in the `video` group.
    case permissionDenied(device: String)
    /// Another program holds the device (EBUSY, at open, VIDIOC_S_FMT or VIDIOC_REQBUFS).
    case busy(device: String, operation: String)
    /// VIDIOC_QUERYCAP failed with ENOTTY: the file is not a V4L2 device.
    case notV4L2Device(device: String)
    /// A V4L2 device without single-planar video capture (a metadata node, an output, an
    /// M2M codec…). `card` is the driver's name for it.
    case notCaptureDevice(device: String, card: String)
    /// Neither streaming (mmap) nor read() I/O is offered.
    case noUsableIO(device: String)
    /// The requested pixel format is not offered, or the driver replaced it; `available`
    /// lists the fourccs it offers.
    case formatNotSupported(device: String, requested: String, available: [String])
    /// The device disappeared while in use (ENODEV, or poll reporting an error): unplugged.
    case unplugged(device: String, operation: String)
    /// No frame arrived for `seconds` although the stream was on.
    case timeout(device: String, seconds: Double)
    /// The caller asked to stop while waiting for a frame: `signal` is SIGINT's or SIGTERM's
    /// number, or 0 for a stop asked by the program itself (a key in a preview window).
    case interrupted(device: String, signal: Int32)
    /// A frame whose data cannot be turned into pixels (short buffer, corrupt Motion-JPEG).
    /// Cameras send such frames now and then: callers usually skip them.
    case badFrame(device: String, detail: String)
    /// Another system call failure: `operation` is the call or ioctl (`VIDIOC_STREAMON`,
    /// `mmap`), `errno` the C error number.
    case system(device: String, operation: String, errno: Int32)

    /// The device path this error is about.
    public var device: String {
        switch self {
        case .noSuchDevice(let d), .permissionDenied(let d), .busy(let d, _), .notV4L2Device(let d),
             .notCaptureDevice(let d, _), .noUsableIO(let d), .formatNotSupported(let d, _, _),
             .unplugged(let d, _), .timeout(let d, _), .interrupted(let d, _), .badFrame(let d, _),
             .system(let d, _, _):
            return d
        }
    }

    public var description: String {
        switch self {
        case .noSuchDevice(let d):
            return "\(d): no such device (is the camera plugged in? 'isbnscan devices' lists them)"
        case .permissionDenied(let d):
            return "\(d): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER) and log in again"
        case .busy(let d, let op):
            return "\(d): device busy (\(op)): another program is using the camera"
        case .notV4L2Device(let d):
            return "\(d): not a V4L2 video device"
        case .notCaptureDevice(let d, let card):
            return "\(d): \(card.isEmpty ? "this device" : "'\(card)'") is not a video capture device"
        case .noUsableIO(let d):
            return "\(d): the driver offers neither streaming nor read() I/O"
        case .formatNotSupported(let d, let requested, let available):
            return "\(d): pixel format \(requested) not supported; the device offers \(available.isEmpty ? "no usable format" : available.joined(separator: ", "))"
        case .unplugged(let d, let op):
            return "\(d): device unplugged (\(op) failed with ENODEV)"
        case .timeout(let d, let seconds):
            return "\(d): no frame from the camera for \(Self.format(seconds)) s (stalled device or driver)"
        case .interrupted(let d, let signal):
            return "\(d): " + (signal == 0 ? "stopped" : "interrupted by \(isc_signal_name(signal).map { String(cString: $0) } ?? "signal \(signal)")")
        case .badFrame(let d, let detail):
            return "\(d): unusable frame: \(detail)"
        case .system(let d, let op, let code):
            return "\(d): \(op) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// The error for `errno` from `operation` on `device`, mapped to a named case where one fits.
    static func from(errno code: Int32, operation: String, device: String) -> CaptureError {
        switch code {
        case ENODEV where operation != "open": return .unplugged(device: device, operation: operation)
        case ENOENT, ENXIO, ENODEV: return .noSuchDevice(device: device)
        case EACCES, EPERM: return .permissionDenied(device: device)
        case EBUSY: return .busy(device: device, operation: operation)
        default: return .system(device: device, operation: operation, errno: code)
        }
    }
}
