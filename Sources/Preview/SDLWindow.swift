internal import CSDL2

/// One SDL window (SDL_CreateWindow); `deinit` destroys it (SDL_DestroyWindow).
/// Keeps SDL's video subsystem up for as long as it lives.
final class SDLWindow {
    let pointer: OpaquePointer
    private let video: SDLVideo

    /// A window of `width`×`height` pixels, placed by the window manager.
    /// - Throws: ``PreviewError/sdl(operation:detail:)``.
    init(video: SDLVideo, title: String, width: Int, height: Int) throws(PreviewError) {
        self.video = video
        let position = isc_sdl_windowpos_undefined()
        guard let window = SDL_CreateWindow(title, position, position, Int32(width), Int32(height),
                                            SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue) else {
            throw .sdl(operation: "SDL_CreateWindow", detail: sdlError())
        }
        pointer = window
    }

    deinit { SDL_DestroyWindow(pointer) }
}
