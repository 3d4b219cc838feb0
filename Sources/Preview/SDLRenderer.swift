// SPDX-License-Identifier: Apache-2.0
internal import CSDL2

/// The renderer of one window (SDL_CreateRenderer); `deinit` destroys it (SDL_DestroyRenderer),
/// which must happen before its window is destroyed: it keeps the window alive.
final class SDLRenderer {
    let pointer: OpaquePointer
    private let window: SDLWindow
    var sdl: isc_sdl_api { window.sdl }

    /// - Throws: ``PreviewError/sdl(operation:detail:)``.
    init(window: SDLWindow) throws(PreviewError) {
        self.window = window
        guard let renderer = window.sdl.CreateRenderer(window.pointer, -1, 0) else {
            throw .sdl(operation: "SDL_CreateRenderer", detail: window.sdl.lastError)
        }
        pointer = renderer
    }

    deinit { sdl.DestroyRenderer(pointer) }
}
