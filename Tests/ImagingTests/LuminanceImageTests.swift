// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging

@Suite struct LuminanceImageTests {
    struct Refused: Error, Equatable {}

    @Test func theFillingInitializerWritesEveryPixelRowMajor() {
        var seen = -1
        let image = LuminanceImage(width: 3, height: 2) { pixels in
            seen = pixels.count
            #expect(pixels.allSatisfy { $0 == 0 })
            for i in pixels.indices { pixels[i] = UInt8(10 * i) }
        }
        #expect(seen == 6)
        #expect(image.pixels == [0, 10, 20, 30, 40, 50])
        #expect(image[2, 0] == 20 && image[0, 1] == 30)
    }

    @Test func aFillThatThrowsMakesNoImage() {
        #expect(throws: Refused()) {
            _ = try LuminanceImage(width: 4, height: 4) { (_) throws(Refused) in throw Refused() }
        }
    }

    @Test func anImageFromPixelsKeepsThem() {
        let image = LuminanceImage(width: 2, height: 2, pixels: [1, 2, 3, 4])
        let copy = image
        #expect(copy.pixels == [1, 2, 3, 4])
        #expect(LuminanceImage(width: 2, height: 1, filledWith: 7).pixels == [7, 7])
    }

    /// A quiet zone added to a crop: the pixels move by the border, the border has the grey asked.
    @Test func paddingAddsABorderOfOneGreyAndPercentileFindsThePaper() {
        let crop = LuminanceImage(width: 3, height: 2, pixels: [0, 200, 0, 200, 0, 200])
        let padded = crop.padded(x: 2, y: 1, with: 200)
        #expect(padded.width == 7 && padded.height == 4)
        #expect(padded.pixels == [200, 200, 200, 200, 200, 200, 200,
                                  200, 200, 0, 200, 0, 200, 200,
                                  200, 200, 200, 0, 200, 200, 200,
                                  200, 200, 200, 200, 200, 200, 200])
        #expect(crop.padded(x: 0, y: 0, with: 9).pixels == crop.pixels)
        #expect(crop.percentile(0.9) == 200 && crop.percentile(0) == 0 && crop.percentile(0.4) == 0)
    }
}
