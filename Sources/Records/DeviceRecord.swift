// SPDX-License-Identifier: Apache-2.0
/// What `devices` reports for one video device node:
/// `{"device", "driver", "card", "bus", "capture", "streaming", "read", "formats", "error"}`.
public struct DeviceRecord: Sendable, Equatable, JSONRecord {
    /// One pixel format the device offers: `{"fourcc", "description", "compressed", "sizes"}`.
    public struct Format: Sendable, Equatable, JSONRecord {
        /// The fourcc as `camera --format` takes it, e.g. `YUYV`.
        public var fourcc: String
        /// The driver's description.
        public var description: String
        public var compressed: Bool
        /// Discrete frame sizes, `WxH` in pixels.
        public var sizes: [String]

        public init(fourcc: String, description: String, compressed: Bool, sizes: [String]) {
            self.fourcc = fourcc
            self.description = description
            self.compressed = compressed
            self.sizes = sizes
        }

        public var json: JSONValue {
            .object(["fourcc": .string(fourcc), "description": .string(description), "compressed": .bool(compressed),
                     "sizes": .array(sizes.map(JSONValue.string))])
        }
    }

    /// The node, e.g. `/dev/video0`.
    public var device: String
    /// VIDIOC_QUERYCAP's driver, card and bus_info; `nil` when the node could not be opened.
    public var driver: String?
    public var card: String?
    public var bus: String?
    public var capture: Bool
    public var streaming: Bool
    public var read: Bool
    public var formats: [Format]
    /// Why the node could not be opened or queried, or `nil`.
    public var error: String?

    public init(device: String, driver: String?, card: String?, bus: String?, capture: Bool, streaming: Bool,
                read: Bool, formats: [Format], error: String?) {
        self.device = device
        self.driver = driver
        self.card = card
        self.bus = bus
        self.capture = capture
        self.streaming = streaming
        self.read = read
        self.formats = formats
        self.error = error
    }

    public var json: JSONValue {
        .object(["device": .string(device), "driver": .optional(driver), "card": .optional(card), "bus": .optional(bus),
                 "capture": .bool(capture), "streaming": .bool(streaming), "read": .bool(read),
                 "formats": .array(formats.map(\.json)), "error": .optional(error)])
    }
}
