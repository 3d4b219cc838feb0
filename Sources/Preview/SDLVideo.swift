// SPDX-License-Identifier: Apache-2.0
internal import CSDL2
#if canImport(Glibc)
import Glibc
#endif

/// SDL's video subsystem, initialised once per window (SDL_InitSubSystem(SDL_INIT_VIDEO)) and
/// shut down by `deinit` (SDL_QuitSubSystem, then SDL_Quit). SDL itself is opened here, on the
/// first window (`isc_sdl_load`: dlopen of libSDL2-2.0.so.0), and told to leave the program's
/// signal handlers alone.
final class SDLVideo {
    /// SDL's functions, for this object and the window, renderer and texture made from it.
    let sdl: isc_sdl_api

    /// Unless `SDL_VIDEODRIVER` names a driver, a display must be named by `DISPLAY` (X11) or
    /// `WAYLAND_DISPLAY`: without either, SDL would fall back to drivers that show nothing
    /// to anyone (offscreen) or take over the console.
    ///
    /// - Throws: ``PreviewError/libraryMissing(library:package:detail:)`` when SDL2 cannot be
    ///   opened; ``PreviewError/noDisplay(detail:)`` when there is no display or no video
    ///   driver can start.
    init() throws(PreviewError) {
        sdl = try Self.load()
        func set(_ name: String) -> Bool { getenv(name).map { $0.pointee != 0 } ?? false }
        guard set("SDL_VIDEODRIVER") || set("DISPLAY") || set("WAYLAND_DISPLAY") else {
            throw .noDisplay(detail: "neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
        withUnsafePointer(to: sdl) { api in
            isc_sdl_keep_signal_handlers(api)
            // Only the desktop displays named in the environment: never the offscreen or console
            // drivers, and no Wayland attempt (with its complaints on stderr) without a compositor.
            isc_sdl_video_drivers(api, [set("DISPLAY") ? "x11" : nil, set("WAYLAND_DISPLAY") ? "wayland" : nil]
                .compactMap { $0 }.joined(separator: ","))
        }
        guard sdl.InitSubSystem(isc_sdl_init_video()) == 0 else { throw .noDisplay(detail: sdl.lastError) }
    }

    /// SDL's functions (isc_sdl_load).
    /// - Throws: ``PreviewError/libraryMissing(library:package:detail:)`` with dlopen's reason.
    static func load() throws(PreviewError) -> isc_sdl_api {
        var message = [CChar](repeating: 0, count: 256)
        guard let api = isc_sdl_load(&message, message.count) else {
            throw .libraryMissing(library: "libSDL2", package: "libsdl2-2.0-0",
                                  detail: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return api.pointee
    }

    deinit {
        sdl.QuitSubSystem(isc_sdl_init_video())
        sdl.Quit()
    }
}

extension isc_sdl_api {
    /// SDL's message for the last failure (SDL_GetError).
    var lastError: String {
        guard let text = GetError() else { return "unknown error" }
        let message = String(cString: text)
        return message.isEmpty ? "unknown error" : message
    }
}
