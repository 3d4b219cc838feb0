// SPDX-License-Identifier: Apache-2.0
internal import CSDL2

/// One SDL window (SDL_CreateWindow); `deinit` destroys it (SDL_DestroyWindow).
/// Keeps SDL's video subsystem up for as long as it lives.
final class SDLWindow {
    let pointer: OpaquePointer
    private let video: SDLVideo
    var sdl: isc_sdl_api { video.sdl }

    /// A window of `width`×`height` pixels, placed by the window manager.
    /// - Throws: ``PreviewError/sdl(operation:detail:)``.
    init(video: SDLVideo, title: String, width: Int, height: Int) throws(PreviewError) {
        self.video = video
        let position = isc_sdl_windowpos_undefined()
        guard let window = video.sdl.CreateWindow(title, position, position, Int32(width), Int32(height),
                                            SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue) else {
            throw .sdl(operation: "SDL_CreateWindow", detail: video.sdl.lastError)
        }
        pointer = window
    }

    deinit { sdl.DestroyWindow(pointer) }
}
