// SPDX-License-Identifier: Apache-2.0

/// The most work text reading does on one photo or page, counted in what is handed to Tesseract
/// (pixels, line readings), not in seconds: so that what a page gives never depends on the
/// machine's speed or load, and a page of noise or a 60-megapixel photo ends as a copyright page
/// does. The defaults keep a page within about 10 s of one core and under 1 GB
/// (Documentation/text.md, Cost).
public struct TextBudget: Sendable, Equatable {
    /// Pixels of one look at the whole page with Tesseract's layout analysis: a larger page is
    /// scaled down to it for those looks (the lines it finds are cut out of the scaled page).
    /// Default 4,000,000: type of an ISBN line's usual size (capitals 20–40 pixels tall in a
    /// 12-megapixel photo) stays over 11 pixels tall.
    public var pagePixels: Int
    /// Pixels of the look at the page as one block of text (for a few lines of large type only).
    /// Default 1,000,000: the look at one block is the costliest per pixel on a page without text.
    public var blockPixels: Int
    /// Pixels of the page in which lines are found from their characters' shapes: a larger page
    /// is scaled down to it for that search. Default 16,000,000 (a phone's 12-megapixel photo at
    /// its own size).
    public var typeLinePixels: Int
    /// Readings of single lines per page: the `ISBN` lines read again, and the lines found from
    /// their characters' shapes (these taken the likeliest first: about as long as an ISBN line).
    /// Default 40.
    public var lines: Int
    /// Pixels handed to Tesseract per page in all (page looks and line readings). Default
    /// 40,000,000.
    public var pixels: Int

    public init(pagePixels: Int = 4_000_000, blockPixels: Int = 1_000_000, typeLinePixels: Int = 16_000_000,
                lines: Int = 40, pixels: Int = 40_000_000) {
        self.pagePixels = pagePixels
        self.blockPixels = blockPixels
        self.typeLinePixels = typeLinePixels
        self.lines = lines
        self.pixels = pixels
    }
}

/// What text reading handed Tesseract for the last page read (``PrintedISBNReader/work``).
public struct TextWork: Sendable, Equatable {
    /// Looks at the whole page (layout analysis or one block).
    public var pageLooks = 0
    /// The largest of those looks, in pixels.
    public var largestPage = 0
    /// Single lines read.
    public var lines = 0
    /// Pixels handed to Tesseract in all.
    public var pixels = 0
    /// Readings left out because the budget was spent.
    public var refused = 0

    public init() {}
}
