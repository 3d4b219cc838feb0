// SPDX-License-Identifier: Apache-2.0
/// Why the preview window could not be shown.
public enum PreviewError: Error, Equatable, CustomStringConvertible {
    /// No display to open a window on (no X11 or Wayland server, or SDL has no video driver
    /// for it); `detail` is SDL's message (`SDL_GetError`).
    case noDisplay(detail: String)
    /// SDL failed in `operation` (`SDL_CreateWindow`, `SDL_CreateRenderer`, …) with `detail`.
    case sdl(operation: String, detail: String)
    /// `library` (from the Debian package `package`) could not be opened; `detail` is
    /// dlopen's reason (dlerror).
    case libraryMissing(library: String, package: String, detail: String)
    /// The snapshot file could not be written; `errno` is the C error number.
    case snapshotNotWritten(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .noDisplay(let detail):
            return "--preview needs a display (set DISPLAY for X11 or WAYLAND_DISPLAY for Wayland): \(detail)"
        case .libraryMissing(let library, let package, let detail):
            return "--preview needs \(library) (apt install \(package)): \(detail)"
        case .sdl(let operation, let detail):
            return "preview window: \(operation) failed: \(detail)"
        case .snapshotNotWritten(let path, let errno):
            return "\(path): the preview snapshot could not be written (errno \(errno))"
        }
    }
}
