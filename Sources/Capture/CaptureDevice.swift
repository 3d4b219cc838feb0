// SPDX-License-Identifier: Apache-2.0
internal import CV4L2
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// One frame as the driver delivered it, borrowed from the device for the duration of a
/// ``CaptureDevice/withNextFrame(timeout:stopRequest:_:)`` call.
///
/// `bytes` points into a memory-mapped buffer (or the read() buffer) that the driver reuses
/// as soon as the call returns: copy what you need, never keep the pointer.
public struct Frame {
    /// The frame's data: `format.height` rows of `format.bytesPerLine` bytes for raw
    /// formats, one JPEG for Motion-JPEG. Only the bytes the driver filled (`bytesused`).
    public let bytes: UnsafeRawBufferPointer
    /// The stream format the bytes are in.
    public let format: StreamFormat
    /// The driver's frame counter (`v4l2_buffer.sequence`, from 0; gaps are dropped frames);
    /// with read() I/O, the frames read so far.
    public let sequence: Int
    /// The driver flagged the frame as damaged (`V4L2_BUF_FLAG_ERROR`).
    public let damaged: Bool

    /// A frame over `bytes` (for frames from elsewhere than a device, e.g. tests).
    public init(bytes: UnsafeRawBufferPointer, format: StreamFormat, sequence: Int, damaged: Bool) {
        self.bytes = bytes
        self.format = format
        self.sequence = sequence
        self.damaged = damaged
    }
}

/// A V4L2 video capture device opened for streaming (V4L2 API, "Streaming I/O (Memory
/// Mapping)", with "Read/Write" I/O as the fallback).
///
/// Life cycle: ``init(path:requireCapture:)`` opens and queries the node (VIDIOC_QUERYCAP),
/// ``configure(format:width:height:fps:)`` negotiates the format (VIDIOC_ENUM_FMT,
/// VIDIOC_S_FMT, VIDIOC_S_PARM), ``start(bufferCount:)`` maps the buffers and starts the
/// stream (VIDIOC_REQBUFS, VIDIOC_QUERYBUF + mmap, VIDIOC_QBUF, VIDIOC_STREAMON), and
/// ``withNextFrame(timeout:stopRequest:_:)`` waits with poll(2) and dequeues (VIDIOC_DQBUF), then queues
/// the buffer again. ``close()`` — or `deinit` — stops the stream (VIDIOC_STREAMOFF),
/// unmaps every buffer, frees them (VIDIOC_REQBUFS 0) and closes the file, in that order,
/// whatever state the device is in (including unplugged).
///
/// Owns the descriptor and the mappings. Not thread-safe: one capture thread.
public final class CaptureDevice {
    /// The device node as given (`/dev/video0`).
    public let path: String
    /// What VIDIOC_QUERYCAP reported.
    public let info: DeviceInfo
    /// The negotiated format, after ``configure(format:width:height:fps:)``.
    public private(set) var format: StreamFormat?

    private var descriptor: DeviceDescriptor?
    private var buffers: [MappedBuffer] = []
    private var streaming = false
    private var readBuffer: UnsafeMutableRawBufferPointer?
    /// Frames read with read(2), which has no sequence number of its own.
    private var framesRead = 0

    /// Opens `path` (O_RDWR | O_NONBLOCK) and queries it with VIDIOC_QUERYCAP.
    ///
    /// - Parameter requireCapture: refuse devices without video capture (default `true`;
    ///   `isbnscan devices` passes `false` to describe every node).
    /// - Throws: ``CaptureError``: `noSuchDevice`, `permissionDenied`, `busy`,
    ///   `notV4L2Device`, `notCaptureDevice`, or `system` for other errors.
    public init(path: String, requireCapture: Bool = true) throws(CaptureError) {
        var fd: Int32 = -1
        let o = isc_v4l2_open(path, &fd)
        guard o == 0 else { throw .from(errno: o, operation: "open", device: path) }
        let descriptor = DeviceDescriptor(fd: fd)   // closes the fd if anything below throws
        var cap = isc_v4l2_capability()
        let r = isc_v4l2_querycap(fd, &cap)
        if r == ENOTTY || r == EINVAL { throw .notV4L2Device(device: path) }
        guard r == 0 else { throw .from(errno: r, operation: "VIDIOC_QUERYCAP", device: path) }
        let caps = cap.caps
        let info = DeviceInfo(driver: Self.string(cap.driver), card: Self.string(cap.card),
                              busInfo: Self.string(cap.bus_info),
                              canCapture: caps & ISC_V4L2_CAP_VIDEO_CAPTURE != 0,
                              canStream: caps & ISC_V4L2_CAP_STREAMING != 0,
                              canRead: caps & ISC_V4L2_CAP_READWRITE != 0)
        if requireCapture && !info.canCapture { throw .notCaptureDevice(device: path, card: info.card) }
        self.path = path
        self.info = info
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Whether the device is still open (``close()`` not yet called).
    public var isOpen: Bool { descriptor != nil }

    /// The capture formats offered (VIDIOC_ENUM_FMT), each with its frame sizes
    /// (VIDIOC_ENUM_FRAMESIZES), in the driver's order. Empty for non-capture devices.
    public func formats() -> [FormatDescription] {
        guard let fd = descriptor?.fd else { return [] }
        var result: [FormatDescription] = []
        var index: UInt32 = 0
        while index < 64 {
            var fourcc: UInt32 = 0, flags: UInt32 = 0
            var name = [CChar](repeating: 0, count: 64)
            guard isc_v4l2_enum_fmt(fd, index, &fourcc, &flags, &name, name.count) == 0 else { break }
            result.append(FormatDescription(pixelFormat: PixelFormat(fourcc: fourcc),
                                            name: Self.string(name), compressed: flags & 1 != 0,
                                            sizes: frameSizes(fd: fd, fourcc: fourcc)))
            index += 1
        }
        return result
    }

    private func frameSizes(fd: Int32, fourcc: UInt32) -> [FrameSize] {
        var sizes: [FrameSize] = []
        var index: UInt32 = 0
        while index < 256 {
            var type: UInt32 = 0, w0: UInt32 = 0, w1: UInt32 = 0, ws: UInt32 = 0, h0: UInt32 = 0, h1: UInt32 = 0, hs: UInt32 = 0
            guard isc_v4l2_enum_framesizes(fd, fourcc, index, &type, &w0, &w1, &ws, &h0, &h1, &hs) == 0 else { break }
            if type == 1 {
                sizes.append(.discrete(width: Int(w0), height: Int(h0)))
            } else {
                sizes.append(.stepwise(minWidth: Int(w0), maxWidth: Int(w1), stepWidth: Int(ws),
                                       minHeight: Int(h0), maxHeight: Int(h1), stepHeight: Int(hs)))
                break   // a range is the only entry
            }
            index += 1
        }
        return sizes
    }

    /// Negotiates the capture format (VIDIOC_S_FMT, then VIDIOC_S_PARM for the frame rate).
    ///
    /// - Parameters:
    ///   - requested: the pixel format, or `nil` for the first offered of
    ///     ``PixelFormat/preferred`` (GREY, YUYV, NV12, YU12, then MJPG).
    ///   - width, height: the frame size wanted in pixels; the driver picks the nearest it
    ///     has, and the result says which.
    ///   - fps: frames per second wanted, or `nil` to leave the driver's rate.
    /// - Returns: what the driver chose.
    /// - Throws: ``CaptureError/formatNotSupported(device:requested:available:)`` when the
    ///   format is not offered or the driver substitutes another; `busy` when another
    ///   program streams from the device; `system` otherwise.
    public func configure(format requested: PixelFormat?, width: Int, height: Int, fps: Int?) throws(CaptureError) -> StreamFormat {
        guard let fd = descriptor?.fd else { throw .system(device: path, operation: "VIDIOC_S_FMT", errno: EBADF) }
        let offered = formats().map(\.pixelFormat)
        let available = offered.map(\.description)
        let chosen: PixelFormat
        if let requested {
            guard offered.contains(requested) else {
                throw .formatNotSupported(device: path, requested: requested.description, available: available)
            }
            chosen = requested
        } else {
            guard let first = PixelFormat.preferred.first(where: offered.contains) else {
                throw .formatNotSupported(device: path, requested: "auto (GREY, YUYV, NV12, YU12 or MJPG)", available: available)
            }
            chosen = first
        }
        var f = isc_v4l2_format(width: UInt32(clamping: width), height: UInt32(clamping: height),
                                fourcc: chosen.fourcc, bytes_per_line: 0, size_image: 0)
        let r = isc_v4l2_s_fmt(fd, &f)
        if r == EINVAL { throw .formatNotSupported(device: path, requested: chosen.description, available: available) }
        guard r == 0 else { throw .from(errno: r, operation: "VIDIOC_S_FMT", device: path) }
        guard f.fourcc == chosen.fourcc, f.width > 0, f.height > 0 else {
            throw .formatNotSupported(device: path, requested: chosen.description, available: available)
        }
        var stream = StreamFormat(pixelFormat: chosen, width: Int(f.width), height: Int(f.height),
                                  bytesPerLine: Int(f.bytes_per_line), sizeImage: Int(f.size_image))
        // Some drivers leave bytesperline 0 for packed formats: use the minimum.
        let minimum = chosen == .yuyv ? stream.width * 2 : stream.width
        if chosen != .mjpg && stream.bytesPerLine < minimum { stream.bytesPerLine = minimum }
        if let fps, fps > 0 {
            var num: UInt32 = 0, den: UInt32 = 0
            if isc_v4l2_s_fps(fd, UInt32(fps), &num, &den) == 0, den > 0 {
                stream.framesPerSecond = Double(num) / Double(den)
            }
        }
        format = stream
        return stream
    }

    /// Starts capturing: `bufferCount` memory-mapped buffers queued and the stream on, or —
    /// on a device with read() I/O only — one buffer of `sizeImage` bytes for read(2).
    ///
    /// - Throws: ``CaptureError``: `noUsableIO`, `busy` (VIDIOC_REQBUFS), `unplugged`, or
    ///   `system` naming the ioctl or mmap that failed. Whatever was mapped is released.
    public func start(bufferCount: Int = 4) throws(CaptureError) {
        guard let fd = descriptor?.fd, let format else {
            throw .system(device: path, operation: "VIDIOC_STREAMON (format not set)", errno: EINVAL)
        }
        if info.canStream {
            var count = UInt32(max(2, bufferCount))
            var r = isc_v4l2_reqbufs(fd, &count)
            guard r == 0 else { throw .from(errno: r, operation: "VIDIOC_REQBUFS", device: path) }
            guard count >= 2 else { throw .system(device: path, operation: "VIDIOC_REQBUFS (\(count) buffers)", errno: ENOMEM) }
            do throws(CaptureError) {
                for index in 0..<Int(count) {
                    buffers.append(try MappedBuffer(fd: fd, index: index, device: path))
                    r = isc_v4l2_qbuf(fd, UInt32(index))
                    guard r == 0 else { throw .from(errno: r, operation: "VIDIOC_QBUF", device: path) }
                }
                r = isc_v4l2_streamon(fd)
                guard r == 0 else { throw .from(errno: r, operation: "VIDIOC_STREAMON", device: path) }
                streaming = true
            } catch {
                releaseBuffers(fd: fd)
                throw error
            }
        } else if info.canRead {
            readBuffer = .allocate(byteCount: max(format.sizeImage, format.bytesPerLine * format.height, 1),
                                   alignment: 16)
        } else {
            throw .noUsableIO(device: path)
        }
    }

    /// Waits up to `timeout` seconds for the next frame, lets `body` look at it, and gives
    /// the buffer back to the driver (VIDIOC_QBUF) as soon as `body` returns.
    ///
    /// Uses poll(2) then VIDIOC_DQBUF (or read(2)); EAGAIN after a poll is retried. `body`
    /// should copy what it needs and return quickly: the driver can fill a buffer only while
    /// it is queued.
    ///
    /// - Parameter stopRequest: asked before every wait, and at least every
    ///   ``stopCheckInterval`` seconds while waiting (and when poll(2) is interrupted by a
    ///   signal); a value other than `nil` (a signal number, or 0 for a stop asked by the
    ///   program, e.g. from a window) ends the wait with ``CaptureError/interrupted(device:signal:)``.
    ///   The caller owns the signal handling: this module installs none.
    /// - Returns: `body`'s result, or `nil` when no frame came within `timeout`.
    /// - Throws: ``CaptureError``: `interrupted` when `stopRequest` asked to stop, `unplugged`
    ///   (ENODEV or a poll error), or `system` naming the call.
    public func withNextFrame<R>(timeout: Double, stopRequest: () -> Int32? = { nil },
                                 _ body: (Frame) -> R) throws(CaptureError) -> R? {
        guard let fd = descriptor?.fd, let format, streaming || readBuffer != nil else {
            throw .system(device: path, operation: "VIDIOC_DQBUF (stream not started)", errno: EINVAL)
        }
        let clock = ContinuousClock(), start = clock.now, limit = max(0, timeout)
        while true {
            if let signal = stopRequest() { throw .interrupted(device: path, signal: signal) }
            let remaining = limit - (clock.now - start).seconds
            if remaining <= 0 { return nil }
            var revents: Int16 = 0
            let wait = min(remaining, Self.stopCheckInterval)
            let p = isc_v4l2_poll(fd, Int32((wait * 1000).rounded(.up)), &revents)
            if p == EINTR { continue }
            guard p == 0 else { throw .from(errno: p, operation: "poll", device: path) }
            if revents == 0 { continue }
            if revents & ISC_POLLNVAL != 0 { throw .system(device: path, operation: "poll", errno: EBADF) }
            let failed = revents & (ISC_POLLERR | ISC_POLLHUP) != 0

            if let readBuffer {
                var n = 0
                let r = isc_v4l2_read(fd, readBuffer.baseAddress, readBuffer.count, &n)
                if r == EAGAIN || r == EINTR {
                    if failed { throw .unplugged(device: path, operation: "poll") }
                    continue
                }
                guard r == 0 else { throw .from(errno: r, operation: "read", device: path) }
                let frame = Frame(bytes: UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]), format: format,
                                  sequence: framesRead, damaged: false)
                framesRead += 1
                return body(frame)
            }

            var index: UInt32 = 0, used: UInt32 = 0, sequence: UInt32 = 0, flags: UInt32 = 0
            let d = isc_v4l2_dqbuf(fd, &index, &used, &sequence, &flags)
            if d == EAGAIN {
                // poll said ready but nothing to dequeue: spurious (retry), or the device is gone.
                if failed { throw .unplugged(device: path, operation: "poll") }
                continue
            }
            guard d == 0 else { throw .from(errno: d, operation: "VIDIOC_DQBUF", device: path) }
            guard Int(index) < buffers.count else {
                throw .system(device: path, operation: "VIDIOC_DQBUF (buffer \(index))", errno: EINVAL)
            }
            let buffer = buffers[Int(index)]
            let frame = Frame(bytes: UnsafeRawBufferPointer(start: buffer.address, count: min(Int(used), buffer.length)),
                              format: format, sequence: Int(sequence), damaged: flags & ISC_V4L2_BUF_FLAG_ERROR != 0)
            let result = body(frame)
            let q = isc_v4l2_qbuf(fd, index)
            guard q == 0 else { throw .from(errno: q, operation: "VIDIOC_QBUF", device: path) }
            return result
        }
    }

    /// The longest single poll(2) of ``withNextFrame(timeout:stopRequest:_:)``, in seconds: how
    /// late a stop asked from another thread (or a signal delivered to another thread) is seen.
    public static let stopCheckInterval = 0.1

    /// Stops the stream (VIDIOC_STREAMOFF), unmaps every buffer, frees them (VIDIOC_REQBUFS
    /// 0) and closes the device. Errors are ignored: an unplugged device fails each step, and
    /// the kernel releases everything once the descriptor is closed. Calling it again does
    /// nothing.
    public func close() {
        guard let fd = descriptor?.fd else { return }
        releaseBuffers(fd: fd)
        readBuffer?.deallocate()
        readBuffer = nil
        descriptor = nil   // DeviceDescriptor.deinit closes the fd
    }

    private func releaseBuffers(fd: Int32) {
        if streaming { _ = isc_v4l2_streamoff(fd) }
        streaming = false
        let hadBuffers = !buffers.isEmpty
        buffers.removeAll()   // MappedBuffer.deinit unmaps each
        if hadBuffers {
            var none: UInt32 = 0
            _ = isc_v4l2_reqbufs(fd, &none)
        }
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    static func string(_ chars: [CChar]) -> String {
        chars.withUnsafeBytes { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
