// SPDX-License-Identifier: Apache-2.0
import Scanning

/// What `camera` reports when a frame confirms ISBNs:
/// `{"device", "frame", "time", "width", "height", "symbols", "isbns", "rejected", "error"}`.
public struct FrameEventRecord: Sendable, Equatable, JSONRecord {
    /// The capture device path.
    public var device: String
    /// Frames received so far, from 1.
    public var frame: Int
    /// When the codes were confirmed: ISO 8601 in UTC to the millisecond
    /// (`2026-11-30T14:03:07.215Z`), or `nil` when not known.
    public var time: String?
    /// Frame size in pixels.
    public var width: Int
    public var height: Int
    /// Every symbol read in this frame (polygons in frame pixels).
    public var symbols: [SymbolRecord]
    /// The ISBNs printed with this frame (confirmed now).
    public var isbns: [ISBNRecord]
    /// Codes refused in this frame.
    public var rejected: [RefusalRecord]
    /// Always `nil` today (device errors end the run and go to stderr).
    public var error: String?

    public init(device: String, frame: Int, time: String? = nil, width: Int, height: Int, symbols: [SymbolRecord],
                isbns: [ISBNRecord], rejected: [RefusalRecord], error: String? = nil) {
        self.device = device
        self.frame = frame
        self.time = time
        self.width = width
        self.height = height
        self.symbols = symbols
        self.isbns = isbns
        self.rejected = rejected
        self.error = error
    }

    /// The event for `report` of frame `frame` (judged by the session's ``DecodingPolicy``),
    /// printing the accepted codes `printed`.
    public init(device: String, frame: Int, time: String? = nil, width: Int, height: Int, report: ScanReport,
                printed: [ReadCode], options: RecordOptions = RecordOptions()) {
        self.init(device: device, frame: frame, time: time, width: width, height: height,
                  symbols: report.codes.map { SymbolRecord($0, options: options) },
                  isbns: printed.compactMap { SymbolRecord($0, options: options).isbn },
                  rejected: report.rejected.map { RefusalRecord($0, $0.verdict.rejection!) })
        pairJapaneseBookCodes()
    }

    public var json: JSONValue {
        .object(["device": .string(device), "frame": .int(frame), "time": .optional(time), "width": .int(width), "height": .int(height),
                 "symbols": .array(symbols.map(\.json)), "isbns": .array(isbns.map(\.json)),
                 "rejected": .array(rejected.map(\.json)), "error": .optional(error)])
    }
}
