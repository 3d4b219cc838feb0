import Imaging

extension MultiPassDecoder {
    /// One zbar scan of chosen lines of `image` — rows every `rows`-th line of `rowRect`,
    /// columns every `columns`-th line of `columnRect` (0 or `nil`: none) — with each reading
    /// verified as ``decode(_:region:firstLookDone:earlier:)`` verifies its full scan (judge
    /// them with ``ScanReport/init(symbols:recoveryEvidence:)``). No first look, no recovery pass, and the scanner is not reset: the camera's
    /// per-frame scan (``FrameScanner`` in LiveScan), where the next frame is the next chance.
    ///
    /// zbar's first line in a crop of height `h` at density `n` is `((h - 1) % n + 1) / 2`
    /// lines in (img_scanner.c); a crop with `(h - 1) % n == 0` starts at its first line, so
    /// the caller places the lines by placing the crop.
    public func scanLines(_ image: LuminanceImage, rowRect: PixelRect?, rows: Int,
                          columnRect: PixelRect?, columns: Int) -> [Symbol] {
        var symbols: [Symbol] = []
        if let rect = rowRect, rows > 0 {
            symbols += scanner.scan(image, pixels: rect, pass: "full", rows: rows, columns: 0)
        }
        if let rect = columnRect, columns > 0 {
            symbols += scanner.scan(image, pixels: rect, pass: "full", rows: 0, columns: columns)
        }
        return Self.verified(symbols, in: image)
    }
}
