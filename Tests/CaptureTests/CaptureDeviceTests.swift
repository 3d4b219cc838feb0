// SPDX-License-Identifier: Apache-2.0
import Imaging
import Capture
import Foundation
import LiveScan
import Scanning
import Testing
import TestSupport

/// Every suite that drives the in-process fake device: one at a time, since the fake's
/// configuration lives in environment variables and the CV4L2 call table is global.
@Suite(.serialized) struct FakeDeviceTests {}

/// CaptureDevice against the fake V4L2 device, in this process.
extension FakeDeviceTests { @Suite struct CaptureDeviceTests {
    let inside = testImages + "/roi/band-inside.png"     // 9780345391803 inside the band
    let outside = testImages + "/roi/band-outside.png"   // 9780060850524 above the band

    /// Opens, configures and starts the fake; returns the device.
    func started(_ settings: [String: String], format: PixelFormat? = nil, width: Int = 640, height: Int = 480) throws -> CaptureDevice {
        try InProcessFake.configure(settings)
        let device = try CaptureDevice(path: "/dev/video0")
        _ = try device.configure(format: format, width: width, height: height, fps: 30)
        try device.start()
        return device
    }

    /// The ISBNs read in the next `count` frames, in order, each once.
    func isbns(from device: CaptureDevice, frames count: Int, region: RegionOfInterest = .band) throws -> [String] {
        let scanner = FrameScanner(region: region)
        var found: [String] = []
        for _ in 0..<count {
            let pixels = try #require(try device.withNextFrame(timeout: 5) { frame in
                Result { () throws(CaptureError) in try FrameDecoder.luminance(of: frame, region: region, device: "fake") }
            })
            for isbn in scanner.scan(try pixels.get()).isbns where !found.contains(isbn.isbn13) { found.append(isbn.isbn13) }
        }
        return found
    }

    @Test(arguments: ["YUYV", "GREY", "NV12", "MJPG", "MJPG-NODHT", "MJPG-422", "MJPG-RST"])
    func readsTheISBNInEveryFormat(format: String) throws {
        let device = try started(["FRAMES": inside, "FORMATS": format, "FPS": "0"])
        #expect(device.format?.pixelFormat == PixelFormat(name: String(format.prefix(4))))
        #expect(try isbns(from: device, frames: 2) == ["9780345391803"])
        device.close()
    }

    @Test func respectsBytesPerLine() throws {
        let device = try started(["FRAMES": inside, "FORMATS": "GREY,YUYV", "PAD": "96", "FPS": "0"])
        #expect(device.format?.bytesPerLine == 640 + 96)
        #expect(try isbns(from: device, frames: 1) == ["9780345391803"])
    }

    @Test func negotiatesTheNearestSizeAndPreferredFormat() throws {
        let device = try started(["FORMATS": "MJPG,YUYV", "SIZES": "320x240,1280x720"], width: 1200, height: 700)
        let format = try #require(device.format)
        #expect(format.pixelFormat == .yuyv)   // auto prefers YUYV to MJPG whatever the order
        #expect(format.width == 1280 && format.height == 720)
        #expect(format.bytesPerLine == 2560)
        #expect(format.framesPerSecond == 30)
    }

    @Test func listsFormatsAndSizes() throws {
        try InProcessFake.configure(["FORMATS": "YUYV,MJPG", "SIZES": "640x480,1280x720"])
        let device = try CaptureDevice(path: "/dev/video0")
        #expect(device.info.driver == "fakev4l2")
        #expect(device.info.card == "Fake Camera")
        #expect(device.info.canCapture && device.info.canStream && !device.info.canRead)
        let formats = device.formats()
        #expect(formats.map(\.pixelFormat) == [.yuyv, .mjpg])
        #expect(formats.map(\.compressed) == [false, true])
        #expect(formats[0].sizes == [.discrete(width: 640, height: 480), .discrete(width: 1280, height: 720)])
    }

    @Test func regionOutsideTheBarcodeFindsNothing() throws {
        let device = try started(["FRAMES": outside, "FPS": "0"])
        #expect(try isbns(from: device, frames: 3) == [])
        device.close()
        let whole = try started(["FRAMES": outside, "FPS": "0"])
        #expect(try isbns(from: whole, frames: 1, region: .full) == ["9780060850524"])
    }

    @Test func readIOFallback() throws {
        let device = try started(["FRAMES": inside, "IO": "read", "FPS": "0"])
        #expect(!device.info.canStream && device.info.canRead)
        #expect(try isbns(from: device, frames: 1) == ["9780345391803"])
        #expect(try device.withNextFrame(timeout: 5) { $0.sequence } == 1)   // counted by isbnscan
        #expect(try InProcessFake.counter("fake_v4l2_live_mappings") == 0)
    }

    @Test func releasesEverythingOnClose() throws {
        let fdsBefore = InProcessFake.openFakeDescriptors()
        let device = try started(["FRAMES": inside, "FPS": "0"])
        #expect(InProcessFake.openFakeDescriptors() == fdsBefore + 1 + 4)   // device + 4 buffers
        #expect(InProcessFake.fakeMappings() == 4)
        #expect(try InProcessFake.counter("fake_v4l2_live_mappings") == 4)
        _ = try isbns(from: device, frames: 5)
        device.close()
        #expect(!device.isOpen)
        #expect(InProcessFake.openFakeDescriptors() == fdsBefore)
        #expect(InProcessFake.fakeMappings() == 0)
        #expect(try InProcessFake.counter("fake_v4l2_live_mappings") == 0)
        #expect(try InProcessFake.counter("fake_v4l2_open_devices") == 0)
        device.close()   // a second close does nothing
    }

    @Test func releasesEverythingWhenDropped() throws {
        let fdsBefore = InProcessFake.openFakeDescriptors()
        do {
            let device = try started(["FRAMES": inside, "FPS": "0"])
            _ = try isbns(from: device, frames: 1)
        }
        #expect(InProcessFake.openFakeDescriptors() == fdsBefore)
        #expect(InProcessFake.fakeMappings() == 0)
    }

    @Test func unpluggedMidStream() throws {
        let fdsBefore = InProcessFake.openFakeDescriptors()
        let device = try started(["FRAMES": inside, "FAULT": "enodev-after:3", "FPS": "0"])
        _ = try isbns(from: device, frames: 3)
        #expect(throws: CaptureError.unplugged(device: "/dev/video0", operation: "VIDIOC_DQBUF")) {
            _ = try device.withNextFrame(timeout: 5) { _ in 0 }
        }
        device.close()
        #expect(InProcessFake.openFakeDescriptors() == fdsBefore)
        #expect(InProcessFake.fakeMappings() == 0)
    }

    @Test func eagainAfterPollIsRetried() throws {
        let device = try started(["FRAMES": inside, "FAULT": "eagain", "FPS": "0"])
        #expect(try isbns(from: device, frames: 4) == ["9780345391803"])
    }

    @Test func stalledDeviceTimesOut() throws {
        let device = try started(["FRAMES": inside, "FAULT": "stall-after:1", "FPS": "0"])
        #expect(try device.withNextFrame(timeout: 2) { $0.sequence } == 0)
        #expect(try device.withNextFrame(timeout: 0.2) { $0.sequence } == nil)
    }

    @Test func openErrorsNameTheCause() throws {
        let fdsBefore = InProcessFake.openFakeDescriptors()
        try InProcessFake.configure(["FAULT": "busy"])
        #expect(throws: CaptureError.busy(device: "/dev/video0", operation: "open")) { try CaptureDevice(path: "/dev/video0") }
        try InProcessFake.configure(["FAULT": "eacces"])
        #expect(throws: CaptureError.permissionDenied(device: "/dev/video0")) { try CaptureDevice(path: "/dev/video0") }
        try InProcessFake.configure(["FAULT": "notcapture"])
        #expect(throws: CaptureError.notCaptureDevice(device: "/dev/video0", card: "Fake Camera")) { try CaptureDevice(path: "/dev/video0") }
        try InProcessFake.configure([:])
        #expect(throws: CaptureError.noSuchDevice(device: "/nonexistent/video7")) { try CaptureDevice(path: "/nonexistent/video7") }
        #expect(throws: CaptureError.notV4L2Device(device: "/dev/null")) { try CaptureDevice(path: "/dev/null") }
        #expect(InProcessFake.openFakeDescriptors() == fdsBefore)
    }

    @Test func unsupportedFormatListsTheOffered() throws {
        try InProcessFake.configure(["FORMATS": "YUYV,MJPG"])
        let device = try CaptureDevice(path: "/dev/video0")
        #expect(throws: CaptureError.formatNotSupported(device: "/dev/video0", requested: "GREY", available: ["YUYV", "MJPG"])) {
            try device.configure(format: .grey, width: 640, height: 480, fps: nil)
        }
    }

    @Test func errorMessages() {
        #expect(CaptureError.permissionDenied(device: "/dev/video0").description
                == "/dev/video0: permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER) and log in again")
        #expect(CaptureError.busy(device: "/dev/video2", operation: "open").description
                == "/dev/video2: device busy (open): another program is using the camera")
        #expect(CaptureError.unplugged(device: "/dev/video0", operation: "VIDIOC_DQBUF").description
                == "/dev/video0: device unplugged (VIDIOC_DQBUF failed with ENODEV)")
        #expect(CaptureError.timeout(device: "/dev/video0", seconds: 5).description
                == "/dev/video0: no frame from the camera for 5 s (stalled device or driver)")
        #expect(CaptureError.system(device: "/dev/video0", operation: "VIDIOC_STREAMON", errno: EIO).description
                == "/dev/video0: VIDIOC_STREAMON failed: Input/output error (errno 5)")
        // The stop signals are named where the CLI names them (CSignals' isc_signal_name).
        #expect(CaptureError.interrupted(device: "/dev/video0", signal: SIGINT).description == "/dev/video0: interrupted by SIGINT")
        #expect(CaptureError.interrupted(device: "/dev/video0", signal: SIGTERM).description == "/dev/video0: interrupted by SIGTERM")
        #expect(CaptureError.interrupted(device: "/dev/video0", signal: 0).description == "/dev/video0: stopped")
    }
}
}
