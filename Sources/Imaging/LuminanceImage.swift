// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// An 8-bit luminance (Y800) image: `width`×`height` pixels, one byte each, row-major, rows
/// packed (stride exactly `width`), origin at the top-left, x to the right, y down.
///
/// The pixels are written once, while the image is made (``init(width:height:fill:)``), and
/// read-only after that: copies share one buffer, which nothing outside the package can
/// reach. This is the buffer zbar scans (`Y800` fourcc) without conversion.
public struct LuminanceImage {
    /// Width in pixels, ≥ 1.
    public let width: Int
    /// Height in pixels, ≥ 1.
    public let height: Int
    /// The owner of the `width * height` bytes, shared by copies: package code writes only
    /// into images it has just made and not handed out.
    package let buffer: PixelBuffer

    /// Takes ownership of `buffer`, which must hold at least `width * height` bytes.
    package init(width: Int, height: Int, buffer: PixelBuffer) {
        precondition(width > 0 && height > 0 && buffer.count >= width * height,
                     "LuminanceImage: buffer smaller than \(width)x\(height)")
        self.width = width
        self.height = height
        self.buffer = buffer
    }

    /// A new image filled with `value` (255 = white).
    public init(width: Int, height: Int, filledWith value: UInt8 = 255) {
        self.init(width: width, height: height, buffer: PixelBuffer(count: width * height, filledWith: value))
    }

    /// A new image whose pixels are `pixels`, row-major (`pixels.count == width * height`).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "LuminanceImage: \(pixels.count) pixels for \(width)x\(height)")
        let buffer = PixelBuffer(count: pixels.count, filledWith: 0)
        pixels.withUnsafeBufferPointer { source in
            buffer.pointer.update(from: source.baseAddress!, count: pixels.count)
        }
        self.init(width: width, height: height, buffer: buffer)
    }

    /// A new image whose pixels `fill` writes: it gets the `width * height` bytes, row-major,
    /// set to 0, and must not let the pointer escape. How a writer outside Imaging (a camera
    /// frame's region, say) makes an image without reaching its buffer.
    ///
    /// - Throws: what `fill` throws; then no image is made.
    public init<E: Error>(width: Int, height: Int,
                          fill: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        self.init(width: width, height: height, filledWith: 0)
        try fill(UnsafeMutableBufferPointer(start: buffer.pointer, count: width * height))
    }

    /// The luminance at column `x`, row `y` (0-based, top-left origin).
    public subscript(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)x\(height)")
        return buffer.pointer[y * width + x]
    }

    /// Calls `body` with the `width * height` pixel bytes. The pointer must not escape.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let bytes = UnsafeRawBufferPointer(start: buffer.pointer, count: width * height)
        let result = try body(bytes)
        withExtendedLifetime(buffer) {}
        return result
    }

    /// The pixels as an array (a copy), row-major.
    public var pixels: [UInt8] {
        withUnsafeBytes { Array($0) }
    }
}

/// Sole owner of a `malloc`-allocated pixel buffer, freed in `deinit`.
///
/// Decoders in C hand over their `malloc` result with ``init(adopting:count:)``; Swift code
/// allocates with ``init(count:filledWith:)``. Not `Sendable`: a buffer stays with the worker
/// that made it. Package-only: a ``LuminanceImage``'s pixels are not writable from outside.
package final class PixelBuffer {
    /// First byte. Valid for `count` bytes while `self` is alive.
    package let pointer: UnsafeMutablePointer<UInt8>
    /// Size in bytes.
    package let count: Int

    /// Takes ownership of `pointer`, which must come from `malloc` and hold `count` bytes.
    package init(adopting pointer: UnsafeMutablePointer<UInt8>, count: Int) {
        self.pointer = pointer
        self.count = count
    }

    /// Allocates `count` bytes (at least 1) set to `value`. Traps only if memory runs out.
    package init(count: Int, filledWith value: UInt8) {
        guard let raw = malloc(max(count, 1)) else { fatalError("out of memory allocating \(count) bytes") }
        self.pointer = raw.bindMemory(to: UInt8.self, capacity: max(count, 1))
        self.count = count
        pointer.initialize(repeating: value, count: max(count, 1))
    }

    deinit { free(pointer) }
}
