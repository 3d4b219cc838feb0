// SPDX-License-Identifier: Apache-2.0
import Imaging

/// One recovery pass: a transform of the scanned area, the map from the transformed image's
/// pixels back to the area's, and what the transform does, as properties (the executor orders
/// and leaves out passes by them, never by the pass's name).
struct DecodingPass {
    let name: PassName
    let apply: (LuminanceImage) -> (image: LuminanceImage, toRegion: (Double, Double) -> (Double, Double))
    /// Read with ``EANLineDecoder`` (per-character widths) instead of zbar.
    var byLines = false
    /// The bars come out turned: zbar must scan both ways to cross them.
    var rotates = false
    /// Light bars on a dark ground become dark bars on a light one.
    var inverts = false
    /// Smoothing or sharpening meant for noisy or defocused bars (widened edges): useless on a
    /// region whose edges are sharp.
    var restoresBlur = false
    /// Pixels of the area per pixel of the transformed image along each axis (2: halved,
    /// 0.5: doubled): what a pass costs and what module size it helps.
    var scale = 1.0

    static func plain(_ name: PassName, restoresBlur: Bool = false, inverts: Bool = false,
                      _ transform: @escaping (LuminanceImage) -> LuminanceImage) -> DecodingPass {
        var pass = DecodingPass(name: name) { (transform($0), { ($0, $1) }) }
        pass.restoresBlur = restoresBlur
        pass.inverts = inverts
        return pass
    }

    /// The area as it is, read by ``EANLineDecoder``.
    static func lines(_ name: PassName) -> DecodingPass {
        var pass = plain(name) { $0 }
        pass.byLines = true
        return pass
    }

    static func scaled(_ name: PassName, by factor: Int) -> DecodingPass {
        var pass = DecodingPass(name: name) { image in
            (image.downscaled(by: factor), { (fromReduced($0, by: Double(factor)), fromReduced($1, by: Double(factor))) })
        }
        pass.scale = Double(factor)
        return pass
    }

    static func upscaled(_ name: PassName, by factor: Double) -> DecodingPass {
        var pass = DecodingPass(name: name) { image in
            (image.upscaled(by: factor), { (fromReduced($0, by: 1 / factor), fromReduced($1, by: 1 / factor)) })
        }
        pass.scale = 1 / factor
        return pass
    }

    /// Rotation by `degrees` clockwise; images over `halvingAbovePixels` are halved first
    /// (``DecodingPolicy/rotateAtHalfSizeAbovePixels``: a barcode big enough to need no upscaling
    /// survives it, and rotation costs per pixel).
    static func rotated(by degrees: Double, inverted: Bool = false,
                        halvingAbovePixels: Int = DecodingPolicy().rotateAtHalfSizeAbovePixels) -> DecodingPass {
        let name = PassName(rawValue: (inverted ? "invert-" : "") + "rotate\(degrees < 0 ? "" : "+")\(Int(degrees))")
        var pass = DecodingPass(name: name) { image in
            let factor = image.width * image.height > halvingAbovePixels ? 2 : 1
            var source = image.downscaled(by: factor)
            if inverted { source = source.inverted() }
            let (turned, toSource) = source.rotated(degrees: degrees)
            return (turned, { u, v in
                let (x, y) = toSource(u, v)
                return (fromReduced(x, by: Double(factor)), fromReduced(y, by: Double(factor)))
            })
        }
        pass.rotates = true
        pass.inverts = inverted
        return pass
    }
}
