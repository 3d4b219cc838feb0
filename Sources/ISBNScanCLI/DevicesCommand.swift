// SPDX-License-Identifier: Apache-2.0
import Records
import Capture

/// `isbnscan devices`: lists V4L2 device nodes with their capture formats and frame sizes.
enum DevicesCommand {
    static let spec = CommandSpec(
        name: "devices",
        abstract: "List the video devices (/dev/video*): driver, name, formats, frame sizes.",
        usage: "isbnscan devices [--json]",
        arguments: [],
        options: [OptionSpec("json", help: "One JSON object per device (JSON Lines).")],
        discussion: """
        OUTPUT:
          /dev/video0: 'HD Webcam' (driver uvcvideo, bus usb-0000:00:14.0-1), capture, streaming
            YUYV  YUYV 4:2:2: 640x480 1280x720
            MJPG  Motion-JPEG (compressed): 640x480 1280x720 1920x1080
          /dev/video1: 'HD Webcam' (driver uvcvideo, ...), not a capture device
          The fourcc in the first column is what 'isbnscan camera --format' takes.
          JSON: {"device", "driver", "card", "bus", "capture", "streaming", "read",
          "formats": [{"fourcc", "description", "compressed", "sizes": ["WxH"...]}],
          "error"}.

        EXIT STATUS:
          0  at least one capture device was listed
          1  a device could not be opened or queried (the others are still listed)
          2  usage error
          4  no video capture device
        """)

    static func run(_ parsed: ParsedArguments, stdout: TextSink, stderr: TextSink) throws(UsageError) -> ExitStatus {
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let json = parsed.flag("json")
        let text = TextFormatter(options: .init()), jsonLines = JSONLinesFormatter()
        let paths = VideoDevices.paths()
        var captureDevices = 0, errors = 0
        for path in paths {
            let record: DeviceRecord
            do {
                let device = try CaptureDevice(path: path, requireCapture: false)
                defer { device.close() }
                let info = device.info
                let formats = info.canCapture ? device.formats() : []
                if info.canCapture { captureDevices += 1 }
                record = DeviceRecord(device: path, driver: info.driver, card: info.card, bus: info.busInfo,
                                      capture: info.canCapture, streaming: info.canStream, read: info.canRead,
                                      formats: formats.map { f in
                                          DeviceRecord.Format(fourcc: f.pixelFormat.description, description: f.name,
                                                              compressed: f.compressed, sizes: f.sizes.map(\.description))
                                      }, error: nil)
            } catch {
                errors += 1
                stderr.write("Error: \(error.description)\n")
                record = DeviceRecord(device: path, driver: nil, card: nil, bus: nil, capture: false, streaming: false,
                                      read: false, formats: [], error: error.description)
                if !json { continue }
            }
            stdout.write(json ? jsonLines.format(record) : text.format(record))
        }
        if paths.isEmpty { stderr.write("No video devices (/dev/video*) found.\n") }
        else if captureDevices == 0 && errors == 0 { stderr.write("No video capture device among \(paths.count) video device\(paths.count == 1 ? "" : "s").\n") }
        return errors > 0 ? .inputError : (captureDevices > 0 ? .found : .nothingFound)
    }
}
