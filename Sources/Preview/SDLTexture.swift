// SPDX-License-Identifier: Apache-2.0
internal import CSDL2

/// A streaming texture the frames are uploaded to (SDL_CreateTexture); `deinit` destroys it
/// (SDL_DestroyTexture), before its renderer, which it keeps alive.
final class SDLTexture {
    let pointer: OpaquePointer
    private let renderer: SDLRenderer
    private var sdl: isc_sdl_api { renderer.sdl }
    let format: UInt32
    let width: Int
    let height: Int

    /// - Parameter format: an `SDL_PIXELFORMAT_*` value (YUY2, NV12, IYUV).
    /// - Throws: ``PreviewError/sdl(operation:detail:)``.
    init(renderer: SDLRenderer, format: UInt32, width: Int, height: Int) throws(PreviewError) {
        self.renderer = renderer
        guard let texture = renderer.sdl.CreateTexture(renderer.pointer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(width), Int32(height)) else {
            throw .sdl(operation: "SDL_CreateTexture", detail: renderer.sdl.lastError)
        }
        pointer = texture
        self.format = format
        self.width = width
        self.height = height
    }

    deinit { sdl.DestroyTexture(pointer) }
}
