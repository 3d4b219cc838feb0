// SPDX-License-Identifier: Apache-2.0
import Capture
import Testing

@Suite struct PixelFormatTests {
    @Test func fourccs() {
        #expect(PixelFormat.yuyv.fourcc == 0x5659_5559)   // 'Y' 'U' 'Y' 'V' little-endian
        #expect(PixelFormat.mjpg.fourcc == 0x4750_4A4D)
        #expect(PixelFormat(fourcc: 0x5945_5247) == .grey)
        #expect(PixelFormat(fourcc: 0x3231_5659).description == "YV12")
        #expect(PixelFormat(fourcc: 0x3231_5659).isDecodable == false)
        #expect(PixelFormat(name: "mjpg") == .mjpg)
        #expect(PixelFormat(name: "H264") == nil)
    }
}
