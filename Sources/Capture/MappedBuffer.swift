// SPDX-License-Identifier: Apache-2.0
internal import CV4L2

/// One memory-mapped V4L2 buffer: `length` bytes the driver fills, mapped with mmap(2) at the
/// offset VIDIOC_QUERYBUF gave. Owns the mapping; `deinit` unmaps it (munmap).
///
/// A class, not a `~Copyable` struct, because the buffers of a device live in an array and
/// the standard `Array` holds copyable elements only; each is still owned by exactly one
/// ``CaptureDevice``, which never hands it out.
final class MappedBuffer {
    let address: UnsafeMutableRawPointer
    let length: Int

    /// Maps buffer `index` of `fd` (VIDIOC_QUERYBUF, then mmap).
    /// - Throws: ``CaptureError`` from either call.
    init(fd: Int32, index: Int, device: String) throws(CaptureError) {
        var offset: UInt32 = 0, length: UInt32 = 0
        let r = isc_v4l2_querybuf(fd, UInt32(index), &offset, &length)
        guard r == 0 else { throw .from(errno: r, operation: "VIDIOC_QUERYBUF", device: device) }
        var mapped: UnsafeMutableRawPointer?
        let m = isc_v4l2_mmap(fd, offset, length, &mapped)
        guard m == 0, let mapped else { throw .from(errno: m, operation: "mmap", device: device) }
        self.address = mapped
        self.length = Int(length)
    }

    deinit { _ = isc_v4l2_munmap(address, UInt32(length)) }
}

/// Sole owner of an open device file descriptor; `deinit` closes it.
final class DeviceDescriptor {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { _ = isc_v4l2_close(fd) }
}
