// SPDX-License-Identifier: Apache-2.0
import Imaging
import LiveScan
import Scanning

/// Everything one picture of the preview window shows. Coordinates are frame pixels, origin
/// top-left, x right, y down; the status strip lies below the frame.
public struct PreviewScene: Sendable {
    /// A code outlined on the picture.
    public struct Outline: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Confirmed: green, labelled with its ISBN.
            case confirmed
            /// Refused: orange, labelled with the reason.
            case refused
        }
        public var kind: Kind
        /// The code's polygon in frame pixels, in zbar's point order.
        public var polygon: [Point]
        public var label: String

        public init(kind: Kind, polygon: [Point], label: String) {
            self.kind = kind
            self.polygon = polygon
            self.label = label
        }
    }

    /// The latest frame, `nil` before the first.
    public var frame: LiveFrame?
    /// The frame size in pixels (the window shows it 1:1).
    public var width: Int
    public var height: Int
    /// The region scanned, drawn as the red frame; `nil` draws none (whole frame).
    public var region: PixelRect?
    public var outlines: [Outline]
    /// The status strip's text.
    public var status: String

    public init(frame: LiveFrame?, width: Int, height: Int, region: PixelRect?, outlines: [Outline], status: String) {
        self.frame = frame
        self.width = width
        self.height = height
        self.region = region
        self.outlines = outlines
        self.status = status
    }
}
