// SPDX-License-Identifier: Apache-2.0
internal import CZBar
import Imaging

/// What the scanner looks for.
public struct ScannerOptions: Sendable, Equatable {
    /// Also decode EAN-2 and EAN-5 add-ons and attach them to their EAN-13. Default `false`.
    public var addOns: Bool
    /// zbar scan density (`ZBAR_CFG_X_DENSITY` / `ZBAR_CFG_Y_DENSITY`): scan every n-th
    /// column / row. 1 (default) scans every line; larger is faster and misses small codes.
    public var density: Int

    public init(addOns: Bool = false, density: Int = 1) {
        self.addOns = addOns
        self.density = density
    }
}

/// zbar's image scanner set up for book barcodes: EAN-13 and EAN-8 only (plus EAN-2/EAN-5
/// add-ons on request), every other symbology off.
///
/// Set-up follows the traps of zbar 0.23: all symbologies are disabled first (with everything
/// on, zbar glues an add-on to its EAN-13 as one 18-digit `COMPOSITE`); ISBN-10/ISBN-13 stay
/// disabled (ISBN-10 would replace the 13 digits by 10); UPC-A and UPC-E stay disabled, so a
/// UPC-A arrives as EAN-13 with a leading 0. zbar's verbosity is 0, and no zbar processor is
/// created, so nothing (no D-Bus) is printed.
///
/// Not thread-safe and not `Sendable`: one scanner per worker. Owns one
/// `zbar_image_scanner_t`, destroyed in `deinit`.
public final class BarcodeScanner {
    private var scanner: OpaquePointer
    /// The row and column densities `scanner` is configured with.
    private var currentDensity: (rows: Int32, columns: Int32)
    public let options: ScannerOptions

    /// Creates and configures a `zbar_image_scanner_t` (`zbar_image_scanner_create`).
    public init(options: ScannerOptions = ScannerOptions()) {
        self.options = options
        self.scanner = Self.makeScanner(options)
        self.currentDensity = (Int32(max(1, options.density)), Int32(max(1, options.density)))
    }

    private static func makeScanner(_ options: ScannerOptions) -> OpaquePointer {
        zbar_set_verbosity(0)
        guard let scanner = zbar_image_scanner_create() else {
            fatalError("zbar_image_scanner_create: out of memory")
        }
        let enable = ZBAR_CFG_ENABLE
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, enable, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_EAN13, enable, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_EAN8, enable, 1)
        if options.addOns {
            zbar_image_scanner_set_config(scanner, ZBAR_EAN5, enable, 1)
            zbar_image_scanner_set_config(scanner, ZBAR_EAN2, enable, 1)
        }
        let density = Int32(max(1, options.density))
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, density)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, density)
        zbar_image_scanner_enable_cache(scanner, 0)
        return scanner
    }

    /// Replaces the zbar scanner by a fresh one with the same settings. zbar's scanner keeps
    /// adaptive state from one image to the next (its quality counts drift by a line or two), so
    /// a result would depend on which images the same scanner saw before; resetting before each
    /// image makes every result the same whatever the order or the number of workers.
    public func reset() {
        zbar_image_scanner_destroy(scanner)
        scanner = Self.makeScanner(options)
        currentDensity = (Int32(max(1, options.density)), Int32(max(1, options.density)))
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    /// Scans the pixels of `image` inside `region` and returns every EAN symbol zbar reports,
    /// add-ons as separate symbols (see ``ScanReport`` for pairing and ISBN judgement).
    ///
    /// The region is applied with `zbar_image_set_crop` after `zbar_image_set_size` (which
    /// resets the crop). Polygons are in pixel coordinates of `image`, whatever the region.
    /// Wraps `zbar_scan_image`. "Nothing found" is an empty array.
    public func scan(_ image: LuminanceImage, region: RegionOfInterest = .full, pass: PassName = .full, density: Int? = nil) -> [Symbol] {
        scan(image, pixels: region.pixelRect(imageWidth: image.width, imageHeight: image.height), pass: pass, density: density)
    }

    /// Scans the pixel rectangle `rect` of `image` (clamped to the image).
    ///
    /// `density` (default ``ScannerOptions/density``) scans every n-th row and every n-th
    /// column (`ZBAR_CFG_Y_DENSITY` for rows, `ZBAR_CFG_X_DENSITY` for columns): the cost falls
    /// as 1/n, and a barcode at least a few times n pixels tall and wide is still crossed by
    /// enough lines. `rows`/`columns` set the two apart; 0 skips that direction.
    public func scan(_ image: LuminanceImage, pixels rect: PixelRect, pass: PassName = .full, density: Int? = nil,
                     rows: Int? = nil, columns: Int? = nil) -> [Symbol] {
        let every = Int32(max(1, density ?? options.density))
        let lines = (rows: rows.map { Int32(max(0, $0)) } ?? every, columns: columns.map { Int32(max(0, $0)) } ?? every)
        if lines.rows != currentDensity.rows {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, lines.rows)
        }
        if lines.columns != currentDensity.columns {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, lines.columns)
        }
        currentDensity = lines
        guard let zimage = zbar_image_create() else { fatalError("zbar_image_create: out of memory") }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, isbnscan_fourcc_y800())
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        // After set_size, which resets it. A 0×0 crop would silently scan nothing.
        let x0 = min(max(rect.x, 0), image.width - 1), y0 = min(max(rect.y, 0), image.height - 1)
        let w = max(1, min(rect.width, image.width - x0)), h = max(1, min(rect.height, image.height - y0))
        zbar_image_set_crop(zimage, UInt32(x0), UInt32(y0), UInt32(w), UInt32(h))

        return withExtendedLifetime(image.buffer) { () -> [Symbol] in
            // No cleanup handler: zbar borrows the pixels; zimage is destroyed before return.
            zbar_image_set_data(zimage, image.buffer.pointer, UInt(image.width * image.height), nil)
            let count = zbar_scan_image(scanner, zimage)
            guard count > 0 else { return [] }
            var symbols: [Symbol] = []
            var current = zbar_image_first_symbol(zimage)
            while let symbol = current {
                if let copy = Self.copy(symbol, pass: pass) { symbols.append(copy) }
                current = zbar_symbol_next(symbol)
            }
            return symbols
        }
    }

    /// Copies a borrowed `zbar_symbol_t` into a Swift value; `nil` for other symbologies.
    private static func copy(_ symbol: OpaquePointer, pass: PassName) -> Symbol? {
        let symbology: Symbology
        switch zbar_symbol_get_type(symbol) {
        case ZBAR_EAN13, ZBAR_ISBN13: symbology = .ean13
        case ZBAR_EAN8: symbology = .ean8
        case ZBAR_EAN5: symbology = .ean5
        case ZBAR_EAN2: symbology = .ean2
        default: return nil
        }
        guard let cData = zbar_symbol_get_data(symbol) else { return nil }
        let data = String(cString: cData)
        // zbar marks a point where each scan line's decode completed: the place is their box.
        let place = PixelRect(covering: (0..<zbar_symbol_get_loc_size(symbol)).map {
            Point(x: Int(zbar_symbol_get_loc_x(symbol, $0)), y: Int(zbar_symbol_get_loc_y(symbol, $0)))
        })
        let orient = zbar_symbol_get_orientation(symbol)
        let degrees: Int? = orient == ZBAR_ORIENT_UNKNOWN ? nil : Int(orient.rawValue) * 90
        return Symbol(symbology: symbology, data: data, quality: Int(zbar_symbol_get_quality(symbol)),
                      orientation: degrees, place: place, pass: pass)
    }
}
