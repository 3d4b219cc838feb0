// SPDX-License-Identifier: Apache-2.0
internal import CSDL2
import LiveScan
import Scanning
#if canImport(Glibc)
import Glibc
#endif

/// The camera preview window (SDL2): the live frame 1:1, the region of interest as a red
/// frame with rounded corners, codes outlined (confirmed in green with their ISBN, refused in
/// orange with the reason), and a status strip below the frame.
///
/// Drawing only: it never decides what is accepted, and reports keys as ``PreviewInput``.
/// Create, draw and poll it on one thread (SDL's video calls belong to the thread that
/// initialised them). Owns the SDL window, renderer and texture; `deinit` releases them
/// (texture, renderer, window, then SDL's video subsystem).
public final class PreviewWindow {
    /// Colours, 8-bit RGB.
    public static let regionColour: (UInt8, UInt8, UInt8) = (255, 0, 0)
    public static let confirmedColour: (UInt8, UInt8, UInt8) = (0, 255, 0)
    public static let refusedColour: (UInt8, UInt8, UInt8) = (255, 160, 0)

    private let window: SDLWindow
    private let sdl: isc_sdl_api
    private let renderer: SDLRenderer
    private var texture: SDLTexture?
    /// Window size in pixels: the frame plus the status strip.
    public private(set) var width: Int
    public private(set) var height: Int
    /// Size of the frame shown, in pixels (the strip lies below it).
    private var frameWidth: Int
    private var frameHeight: Int
    /// Grey chroma planes for luminance-only frames, shown through an I420 texture.
    private var greyChroma: [UInt8] = []

    /// Height of the status strip for a frame `frameWidth` pixels wide.
    public static func stripHeight(frameWidth: Int) -> Int { textScale(frameWidth: frameWidth) * 12 }

    static func textScale(frameWidth: Int) -> Int { frameWidth >= 1200 ? 2 : 1 }

    /// Opens a window for frames of `frameWidth`×`frameHeight` pixels.
    ///
    /// - Throws: ``PreviewError/noDisplay(detail:)`` when there is no display (no X11 or
    ///   Wayland server): SDL_InitSubSystem failed; ``PreviewError/sdl(operation:detail:)``
    ///   when the window or its renderer cannot be made.
    public init(title: String, frameWidth: Int, frameHeight: Int) throws(PreviewError) {
        let video = try SDLVideo()
        sdl = video.sdl
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        width = frameWidth
        height = frameHeight + Self.stripHeight(frameWidth: frameWidth)
        window = try SDLWindow(video: video, title: title, width: width, height: height)
        renderer = try SDLRenderer(window: window)
        _ = sdl.RenderSetLogicalSize(renderer.pointer, Int32(width), Int32(height))
    }

    /// The inputs since the last call (SDL_PollEvent): keys q/Esc, space, u, r; the window closed.
    public func poll() -> [PreviewInput] {
        var inputs: [PreviewInput] = []
        var event = SDL_Event()
        while sdl.PollEvent(&event) != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT:
                inputs.append(.closed)
            case SDL_WINDOWEVENT where SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_CLOSE:
                inputs.append(.closed)
            case SDL_KEYDOWN where event.key.repeat == 0:
                switch Int(event.key.keysym.sym) {
                case Int(SDLK_q.rawValue), Int(SDLK_ESCAPE.rawValue): inputs.append(.quitKey)
                case Int(SDLK_SPACE.rawValue): inputs.append(.togglePause)
                case Int(SDLK_u.rawValue): inputs.append(.undo)
                case Int(SDLK_r.rawValue): inputs.append(.toggleRegion)
                default: break
                }
            default:
                break
            }
        }
        return inputs
    }

    /// Draws `scene` and shows it (SDL_RenderPresent). The window takes the scene's frame size
    /// when it changes.
    ///
    /// - Throws: ``PreviewError/sdl(operation:detail:)`` when the texture cannot be made.
    public func draw(_ scene: PreviewScene) throws(PreviewError) {
        try render(scene)
        sdl.RenderPresent(renderer.pointer)
    }

    /// Draws `scene` like ``draw(_:)`` and returns the picture: `width`×`height` pixels, RGB
    /// 8 bits per channel, row-major, origin top-left (SDL_RenderReadPixels).
    public func drawAndRead(_ scene: PreviewScene) throws(PreviewError) -> (width: Int, height: Int, rgb: [UInt8]) {
        try render(scene)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let status = rgb.withUnsafeMutableBytes {
            sdl.RenderReadPixels(renderer.pointer, nil, SDL_PIXELFORMAT_RGB24.rawValue, $0.baseAddress, Int32(width * 3))
        }
        guard status == 0 else { throw .sdl(operation: "SDL_RenderReadPixels", detail: sdl.lastError) }
        sdl.RenderPresent(renderer.pointer)
        return (width, height, rgb)
    }

    /// Writes a picture from ``drawAndRead(_:)`` as a binary PPM (P6) file.
    ///
    /// - Throws: ``PreviewError/snapshotNotWritten(path:errno:)``.
    public static func writePPM(_ picture: (width: Int, height: Int, rgb: [UInt8]), to path: String) throws(PreviewError) {
        let bytes = Array("P6\n\(picture.width) \(picture.height)\n255\n".utf8) + picture.rgb
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .snapshotNotWritten(path: path, errno: errno) }
        defer { _ = close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .snapshotNotWritten(path: path, errno: errno) }
            done += n
        }
    }

    // MARK: Drawing

    private func render(_ scene: PreviewScene) throws(PreviewError) {
        let r = renderer.pointer
        if scene.width > 0, scene.height > 0, scene.width != frameWidth || scene.height != frameHeight {
            frameWidth = scene.width
            frameHeight = scene.height
            width = frameWidth
            height = frameHeight + Self.stripHeight(frameWidth: frameWidth)
            sdl.SetWindowSize(window.pointer, Int32(width), Int32(height))
            _ = sdl.RenderSetLogicalSize(r, Int32(width), Int32(height))
        }
        _ = sdl.SetRenderDrawColor(r, 0, 0, 0, 255)
        _ = sdl.RenderClear(r)
        if let frame = scene.frame, frame.width == frameWidth, frame.height == frameHeight {
            try upload(frame)
            if let texture {
                var target = SDL_Rect(x: 0, y: 0, w: Int32(frameWidth), h: Int32(frameHeight))
                _ = sdl.RenderCopy(r, texture.pointer, nil, &target)
            }
        }
        if let region = scene.region { drawRegion(RegionFrame(rect: region, frameWidth: frameWidth)) }
        for outline in scene.outlines { drawOutline(outline) }
        let scale = Self.textScale(frameWidth: frameWidth)
        _ = sdl.SetRenderDrawColor(r, 32, 32, 32, 255)
        var strip = SDL_Rect(x: 0, y: Int32(frameHeight), w: Int32(width), h: Int32(height - frameHeight))
        _ = sdl.RenderFillRect(r, &strip)
        drawText(scene.status, x: 4 * scale, y: frameHeight + 2 * scale, scale: scale, colour: (255, 255, 255))
    }

    private func upload(_ frame: LiveFrame) throws(PreviewError) {
        let format: UInt32
        switch frame.layout {
        case .yuyv: format = SDL_PIXELFORMAT_YUY2.rawValue
        case .nv12: format = SDL_PIXELFORMAT_NV12.rawValue
        case .yu12, .grey: format = SDL_PIXELFORMAT_IYUV.rawValue
        }
        if texture == nil || texture!.format != format || texture!.width != frame.width || texture!.height != frame.height {
            texture = nil
            texture = try SDLTexture(renderer: renderer, format: format, width: frame.width, height: frame.height)
        }
        guard let texture else { return }
        let pitch = Int32(frame.bytesPerLine)
        let planeY = frame.bytesPerLine * frame.height
        frame.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            switch frame.layout {
            case .yuyv:
                _ = sdl.UpdateTexture(texture.pointer, nil, base, pitch)
            case .nv12:
                _ = sdl.UpdateNVTexture(texture.pointer, nil, base, pitch, base + planeY, pitch)
            case .yu12:
                let chroma = frame.bytesPerLine / 2, rows = (frame.height + 1) / 2
                _ = sdl.UpdateYUVTexture(texture.pointer, nil, base, pitch, base + planeY, Int32(chroma),
                                     base + planeY + chroma * rows, Int32(chroma))
            case .grey:
                let chroma = (frame.width + 1) / 2, rows = (frame.height + 1) / 2
                if greyChroma.count != chroma * rows { greyChroma = [UInt8](repeating: 128, count: chroma * rows) }
                _ = greyChroma.withUnsafeBufferPointer { grey in
                    sdl.UpdateYUVTexture(texture.pointer, nil, base, pitch, grey.baseAddress, Int32(chroma),
                                         grey.baseAddress, Int32(chroma))
                }
            }
        }
    }

    /// The red frame: four straight bars, and the corners pixel by pixel (``RegionFrame/contains(x:y:)``).
    private func drawRegion(_ frame: RegionFrame) {
        let r = renderer.pointer
        let (red, green, blue) = Self.regionColour
        _ = sdl.SetRenderDrawColor(r, red, green, blue, 255)
        let rect = frame.rect, t = frame.thickness, c = frame.cornerSize
        var bars = [
            SDL_Rect(x: Int32(rect.x + c), y: Int32(rect.y), w: Int32(rect.width - 2 * c), h: Int32(t)),
            SDL_Rect(x: Int32(rect.x + c), y: Int32(rect.y + rect.height - t), w: Int32(rect.width - 2 * c), h: Int32(t)),
            SDL_Rect(x: Int32(rect.x), y: Int32(rect.y + c), w: Int32(t), h: Int32(rect.height - 2 * c)),
            SDL_Rect(x: Int32(rect.x + rect.width - t), y: Int32(rect.y + c), w: Int32(t), h: Int32(rect.height - 2 * c)),
        ].filter { $0.w > 0 && $0.h > 0 }
        _ = sdl.RenderFillRects(r, &bars, Int32(bars.count))
        var points: [SDL_Point] = []
        for (x0, y0) in [(rect.x, rect.y), (rect.x + rect.width - c, rect.y), (rect.x, rect.y + rect.height - c),
                         (rect.x + rect.width - c, rect.y + rect.height - c)] {
            for y in y0..<(y0 + c) { for x in x0..<(x0 + c) where frame.contains(x: x, y: y) {
                points.append(SDL_Point(x: Int32(x), y: Int32(y)))
            } }
        }
        _ = sdl.RenderDrawPoints(r, &points, Int32(points.count))
    }

    /// A polygon 3 pixels wide, closed, and its label above its top-left corner.
    private func drawOutline(_ outline: PreviewScene.Outline) {
        let r = renderer.pointer
        let colour = outline.kind == .confirmed ? Self.confirmedColour : Self.refusedColour
        _ = sdl.SetRenderDrawColor(r, colour.0, colour.1, colour.2, 255)
        let polygon = outline.polygon.count == 1 ? outline.polygon + outline.polygon : outline.polygon
        for dy in -1...1 { for dx in -1...1 {
            var points = (polygon + [polygon[0]]).map { SDL_Point(x: Int32($0.x + dx), y: Int32($0.y + dy)) }
            _ = sdl.RenderDrawLines(r, &points, Int32(points.count))
        } }
        let scale = Self.textScale(frameWidth: frameWidth)
        let left = polygon.map(\.x).min()!, top = polygon.map(\.y).min()!
        let textHeight = (BitmapFont.height + 4) * scale
        let y = top - 3 - textHeight >= 0 ? top - 3 - textHeight : polygon.map(\.y).max()! + 3
        var box = SDL_Rect(x: Int32(left), y: Int32(y), w: Int32(textWidth(outline.label, scale: scale) + 4 * scale),
                           h: Int32(textHeight))
        _ = sdl.SetRenderDrawColor(r, 0, 0, 0, 255)
        _ = sdl.RenderFillRect(r, &box)
        drawText(outline.label, x: left + 2 * scale, y: y + 2 * scale, scale: scale, colour: colour)
    }

    private func textWidth(_ text: String, scale: Int) -> Int { text.count * (BitmapFont.width + 1) * scale }

    /// `text` in the 5×7 bitmap font, each font pixel `scale`×`scale` screen pixels, top-left at (`x`, `y`).
    private func drawText(_ text: String, x: Int, y: Int, scale: Int, colour: (UInt8, UInt8, UInt8)) {
        let r = renderer.pointer
        _ = sdl.SetRenderDrawColor(r, colour.0, colour.1, colour.2, 255)
        var rects: [SDL_Rect] = []
        var penX = x
        for character in text.uppercased() {
            if let rows = BitmapFont.glyphs[character] {
                for (row, bits) in rows.enumerated() {
                    for column in 0..<BitmapFont.width where bits & (0x10 >> column) != 0 {
                        rects.append(SDL_Rect(x: Int32(penX + column * scale), y: Int32(y + row * scale),
                                              w: Int32(scale), h: Int32(scale)))
                    }
                }
            }
            penX += (BitmapFont.width + 1) * scale
        }
        _ = sdl.RenderFillRects(r, &rects, Int32(rects.count))
    }
}
