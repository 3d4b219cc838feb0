// SPDX-License-Identifier: Apache-2.0
/// The name of the decoding pass that read a symbol, as `--json` reports it in `"pass"`.
///
/// The first passes have constants (``full``, ``preview``, ``fit``); recovery passes are named by
/// what they do (`smooth`, `lines`, `gamma-0.6`, `invert`, `rotate+30`, …) and a second look at a
/// smoothed or lightened copy appends `+smooth` or `+gamma-0.8` (``then(_:)``).
public struct PassName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// zbar over every line (or every n-th) of the picture at full size.
    public static let full: PassName = "full"
    /// The first look at a half-size copy (a big JPEG decoded at half size, a big photo halved).
    public static let preview: PassName = "preview"
    /// A code no decoder read, but the re-measurement of another reading's bars gave (``Verification``).
    public static let fit: PassName = "fit"
    /// The fit of the whole symbol's structure to a barcode-like region (``EANTemplateDecoder``):
    /// a measurement independent of every decoder's edges.
    public static let symbolFit: PassName = "template"
    /// zbar over every line of an area that touches the image's edge, given a quiet zone of the
    /// paper's grey (a photo cropped at the guard bars).
    public static let quietZone: PassName = "quiet-zone"

    /// The passes whose readings need no second opinion to be judged (``Arbiter``).
    public var isFirst: Bool { self == .full || self == .preview }

    /// This pass run again on a copy made by `variant` (`smooth`, `gamma-0.8`).
    public func then(_ variant: String) -> PassName { PassName(rawValue: "\(rawValue)+\(variant)") }
}
