internal import CSDL2
#if canImport(Glibc)
import Glibc
#endif

/// SDL's video subsystem, initialised once per window (SDL_InitSubSystem(SDL_INIT_VIDEO)) and
/// shut down by `deinit` (SDL_QuitSubSystem, then SDL_Quit). SDL is told to leave the
/// program's signal handlers alone.
final class SDLVideo {
    /// Unless `SDL_VIDEODRIVER` names a driver, a display must be named by `DISPLAY` (X11) or
    /// `WAYLAND_DISPLAY`: without either, SDL would fall back to drivers that show nothing
    /// to anyone (offscreen) or take over the console.
    ///
    /// - Throws: ``PreviewError/noDisplay(detail:)`` when there is no display or no video
    ///   driver can start.
    init() throws(PreviewError) {
        func set(_ name: String) -> Bool { getenv(name).map { $0.pointee != 0 } ?? false }
        guard set("SDL_VIDEODRIVER") || set("DISPLAY") || set("WAYLAND_DISPLAY") else {
            throw .noDisplay(detail: "neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
        isc_sdl_keep_signal_handlers()
        // Only the desktop displays named in the environment: never the offscreen or console
        // drivers, and no Wayland attempt (with its complaints on stderr) without a compositor.
        isc_sdl_video_drivers([set("DISPLAY") ? "x11" : nil, set("WAYLAND_DISPLAY") ? "wayland" : nil]
            .compactMap { $0 }.joined(separator: ","))
        guard SDL_InitSubSystem(isc_sdl_init_video()) == 0 else { throw .noDisplay(detail: sdlError()) }
    }

    deinit {
        SDL_QuitSubSystem(isc_sdl_init_video())
        SDL_Quit()
    }
}

/// SDL's message for the last failure (SDL_GetError).
func sdlError() -> String {
    guard let text = SDL_GetError() else { return "unknown error" }
    let message = String(cString: text)
    return message.isEmpty ? "unknown error" : message
}
