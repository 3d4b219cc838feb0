// SPDX-License-Identifier: Apache-2.0
import Imaging
import Preview
import Scanning
import Testing

@Suite struct RegionFrameTests {
    /// The band of a 640x480 frame: (32,192) 576x72.
    let band = RegionOfInterest.band.pixelRect(imageWidth: 640, imageHeight: 480)

    @Test func proportionsFollowTheIOSRecipe() {
        // 4 pt border and 6 pt radius on a 390 pt wide screen.
        let frame = RegionFrame(rect: band, frameWidth: 640)
        #expect(band == PixelRect(x: 32, y: 192, width: 576, height: 72))
        #expect(frame.thickness == 7)
        #expect(frame.radius == 10)
        let wide = RegionFrame(rect: RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720), frameWidth: 1280)
        #expect(wide.thickness == 13 && wide.radius == 20)
    }

    @Test func borderLiesInsideTheRegionAlongItsEdges() {
        let frame = RegionFrame(rect: band, frameWidth: 640)
        let midY = band.y + band.height / 2, midX = band.x + band.width / 2
        // Along each edge: the outermost pixel row/column inside the region is painted, the
        // one outside is not, nor the first one past the border's thickness.
        #expect(frame.contains(x: band.x, y: midY) && !frame.contains(x: band.x - 1, y: midY))
        #expect(frame.contains(x: band.x + 6, y: midY) && !frame.contains(x: band.x + 7, y: midY))
        #expect(frame.contains(x: band.x + band.width - 1, y: midY) && !frame.contains(x: band.x + band.width, y: midY))
        #expect(frame.contains(x: midX, y: band.y) && !frame.contains(x: midX, y: band.y - 1))
        #expect(frame.contains(x: midX, y: band.y + band.height - 1) && !frame.contains(x: midX, y: band.y + band.height))
        #expect(!frame.contains(x: midX, y: midY))
    }

    @Test func cornersAreRounded() {
        let frame = RegionFrame(rect: band, frameWidth: 640)
        // The region's corner pixel lies outside the rounded outer edge; 45° in, the border.
        #expect(!frame.contains(x: band.x, y: band.y))
        #expect(!frame.contains(x: band.x + band.width - 1, y: band.y + band.height - 1))
        #expect(frame.contains(x: band.x + 3, y: band.y + 3))
        #expect(frame.contains(x: band.x + 10, y: band.y))
    }
}
