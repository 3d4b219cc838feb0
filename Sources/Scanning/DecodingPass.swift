import Imaging

/// One extra way of looking at an image: a transform of the scanned region and the map from
/// the transformed image's pixels back to the region's.
struct DecodingPass {
    let name: PassName
    let apply: (LuminanceImage) -> (image: LuminanceImage, toRegion: (Double, Double) -> (Double, Double))
    /// Read with ``EANLineDecoder`` (per-character widths) instead of zbar.
    var byLines = false

    static func plain(_ name: PassName, _ transform: @escaping (LuminanceImage) -> LuminanceImage) -> DecodingPass {
        DecodingPass(name: name) { (transform($0), { ($0, $1) }) }
    }

    static func scaled(_ name: PassName, by factor: Int) -> DecodingPass {
        DecodingPass(name: name) { image in
            (image.downscaled(by: factor), { (fromReduced($0, by: Double(factor)), fromReduced($1, by: Double(factor))) })
        }
    }

    static func upscaled(_ name: PassName, by factor: Double) -> DecodingPass {
        DecodingPass(name: name) { image in
            (image.upscaled(by: factor), { (fromReduced($0, by: 1 / factor), fromReduced($1, by: 1 / factor)) })
        }
    }

    /// Rotation by `degrees` clockwise; images over `halvingAbovePixels` are halved first
    /// (``DecodingPolicy/rotateAtHalfSizeAbovePixels``: a barcode big enough to need no upscaling
    /// survives it, and rotation costs per pixel).
    static func rotated(by degrees: Double, inverted: Bool = false,
                        halvingAbovePixels: Int = DecodingPolicy().rotateAtHalfSizeAbovePixels) -> DecodingPass {
        let name = PassName(rawValue: (inverted ? "invert-" : "") + "rotate\(degrees < 0 ? "" : "+")\(Int(degrees))")
        return DecodingPass(name: name) { image in
            let factor = image.width * image.height > halvingAbovePixels ? 2 : 1
            var source = image.downscaled(by: factor)
            if inverted { source = source.inverted() }
            let (turned, toSource) = source.rotated(degrees: degrees)
            return (turned, { u, v in
                let (x, y) = toSource(u, v)
                return (fromReduced(x, by: Double(factor)), fromReduced(y, by: Double(factor)))
            })
        }
    }
}
