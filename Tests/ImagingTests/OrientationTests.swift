// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import Imaging

@Suite struct OrientationTests {
    // Stored 3x2:  a b c
    //              d e f
    let stored = LuminanceImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])

    @Test(arguments: [
        (Orientation.up, 3, [1, 2, 3, 4, 5, 6]),
        (.upMirrored, 3, [3, 2, 1, 6, 5, 4]),
        (.down, 3, [6, 5, 4, 3, 2, 1]),
        (.downMirrored, 3, [4, 5, 6, 1, 2, 3]),
        (.leftMirrored, 2, [1, 4, 2, 5, 3, 6]),   // transpose
        (.right, 2, [4, 1, 5, 2, 6, 3]),          // rotate 90° clockwise
        (.rightMirrored, 2, [6, 3, 5, 2, 4, 1]),  // transverse
        (.left, 2, [3, 6, 2, 5, 1, 4]),           // rotate 90° counter-clockwise
    ])
    func transforms(orientation: Orientation, width: Int, pixels: [UInt8]) {
        let upright = stored.applying(orientation)
        #expect(upright.width == width)
        #expect(upright.pixels == pixels)
    }
}
