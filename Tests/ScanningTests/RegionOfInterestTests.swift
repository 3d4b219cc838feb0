// SPDX-License-Identifier: Apache-2.0
import Testing
import Imaging
@testable import Scanning
import TestSupport

@Suite struct RegionOfInterestTests {
    @Test func pixelRectsIntersectAndContain() {
        let a = PixelRect(x: 10, y: 20, width: 100, height: 50)
        #expect(a.intersection(PixelRect(x: 60, y: 0, width: 100, height: 30)) == PixelRect(x: 60, y: 20, width: 50, height: 10))
        #expect(a.intersection(PixelRect(x: 110, y: 20, width: 5, height: 5)) == nil)  // touching edges share no pixel
        #expect(a.intersection(a) == a)
        #expect(a.contains(PixelRect(x: 10, y: 20, width: 100, height: 50)))
        #expect(a.contains(PixelRect(x: 50, y: 30, width: 10, height: 10)))
        #expect(!a.contains(PixelRect(x: 50, y: 30, width: 61, height: 10)))
    }

    @Test(arguments: [(1280, 720), (1920, 1080), (720, 1280), (480, 640), (800, 600), (1000, 1000), (3000, 4000), (4032, 3024), (101, 37)])
    func avFoundationFormSelectsTheSamePixels(width: Int, height: Int) throws {
        // The iOS reader: upright (0.05, 0.4, 0.9, 0.15) passed as CGRect(x: y, y: 1-x-w, width: h, height: w).
        let x = 0.05, y = 0.4, w = 0.9, h = 0.15
        let avFoundation = try RegionOfInterest(avFoundationX: y, y: 1 - x - w, width: h, height: w)
        #expect(avFoundation.pixelRect(imageWidth: width, imageHeight: height)
                == RegionOfInterest.band.pixelRect(imageWidth: width, imageHeight: height))
    }

    @Test func bandPixelsAt1280x720() {
        #expect(RegionOfInterest.band.pixelRect(imageWidth: 1280, imageHeight: 720)
                == PixelRect(x: 64, y: 288, width: 1152, height: 108))
    }

    @Test func parsesText() throws {
        #expect(try RegionOfInterest(parsing: "0.05, 0.4,0.9,0.15") == .band)
        #expect(try RegionOfInterest(parsingAVFoundation: "0.4,0.05,0.15,0.9").pixelRect(imageWidth: 800, imageHeight: 600)
                == RegionOfInterest.band.pixelRect(imageWidth: 800, imageHeight: 600))
    }

    /// A number ending in '%' is that many hundredths; a bare 0 goes with percentages or
    /// fractions; -0 and -0% are 0.
    @Test func parsesPercentages() throws {
        #expect(try RegionOfInterest(parsing: "5%,40%,90%,15%") == .band)
        #expect(try RegionOfInterest(parsing: " 5 %, 40%,90% ,15%") == .band)
        #expect(try RegionOfInterest(parsing: "0%,0%,100%,100%") == .full)
        #expect(try RegionOfInterest(parsing: "12.5%,0,50%,100%") == RegionOfInterest(x: 0.125, y: 0, width: 0.5, height: 1))
        #expect(try RegionOfInterest(parsing: "0,0,100%,100%") == .full)
        let negativeZero = try RegionOfInterest(parsing: "-0%,-0,100%,100%")
        #expect(negativeZero.x.sign == .plus && negativeZero.y.sign == .plus)
        #expect(negativeZero.description == "0.0,0.0,1.0,1.0")
        #expect(try RegionOfInterest(parsingAVFoundation: "40%,5%,15%,90%") == RegionOfInterest(parsingAVFoundation: "0.4,0.05,0.15,0.9"))
    }

    @Test(arguments: [
        ("0.1,0.2,0.3", RegionError.notFourNumbers("0.1,0.2,0.3")),
        ("5,40,90,15", .outOfRange(name: "x", value: 5)),
        ("5%,40%,150%,15%", .percentOutOfRange(name: "width", text: "150%")),
        ("5%,40%,90%, 101 % ", .percentOutOfRange(name: "height", text: "101 %")),
        ("-1%,40%,90%,15%", .percentOutOfRange(name: "x", text: "-1%")),
        ("5%,0.4,90%,15%", .mixed("5%,0.4,90%,15%")),
        ("12.5%,0,50%,1", .mixed("12.5%,0,50%,1")),
        ("5%%,40%,90%,15%", .notANumber(name: "x", text: "5%%")),
        ("%,40%,90%,15%", .notANumber(name: "x", text: "%")),
        ("5px,40px,90px,15px", .notANumber(name: "x", text: "5px")),
        ("0.1,abc,0.3,0.4", .notANumber(name: "y", text: "abc")),
        ("-0.1,0.2,0.3,0.4", .outOfRange(name: "x", value: -0.1)),
        ("0.1,0.2,1.5,0.4", .outOfRange(name: "width", value: 1.5)),
        ("0.1,0.2,0,0.4", .zeroSize(name: "width")),
        ("0.1,0.2,0.3,0", .zeroSize(name: "height")),
        ("0.5,0.2,0.6,0.4", .pastEdge(sum: "x+width", value: 1.1)),
        ("0.1,nan,0.3,0.4", .notANumber(name: "y", text: "nan")),
    ])
    func invalidRegionsNameTheValue(text: String, error: RegionError) {
        #expect(throws: error) { try RegionOfInterest(parsing: text) }
    }

    @Test func avFoundationErrorsUseItsNames() {
        #expect(throws: RegionError.outOfRange(name: "rectOfInterest.height", value: 2)) {
            try RegionOfInterest(parsingAVFoundation: "0.4,0.05,0.15,2")
        }
        #expect(throws: RegionError.percentOutOfRange(name: "rectOfInterest.height", text: "200%")) {
            try RegionOfInterest(parsingAVFoundation: "40%,5%,15%,200%")
        }
    }

    @Test func bandFindsOnlyTheBarcodeInsideIt() throws {
        let inside = try #require(FileScanner(region: .band).scanFile(path: "\(testImages)/roi/band-inside.png").report)
        #expect(inside.isbns.map(\.isbn13) == ["9780345391803"])
        let outside = try #require(FileScanner(region: .band).scanFile(path: "\(testImages)/roi/band-outside.png").report)
        #expect(outside.codes.isEmpty)
        let whole = try #require(FileScanner().scanFile(path: "\(testImages)/roi/band-outside.png").report)
        #expect(whole.isbns.map(\.isbn13) == ["9780060850524"])
    }

    @Test func twoBooksBandKeepsTheOneInside() throws {
        let band = try #require(FileScanner(region: .band).scanFile(path: "\(testImages)/roi/band-two-books.png").report)
        #expect(band.isbns.map(\.isbn13) == ["9780743273565"])
        // Polygons stay in full-image pixels: the band is rows 240..330 of 600.
        let box = try #require(band.codes.first?.symbol.place)
        #expect(box.y >= 240 && box.lastY <= 330 && box.x >= 420 && box.lastX <= 610)
        let all = try #require(FileScanner().scanFile(path: "\(testImages)/roi/band-two-books.png").report)
        #expect(all.isbns.map(\.isbn13) == ["9780451524935", "9780743273565"])  // reading order: top first
    }

    @Test func onePixelRegionStillScans() {
        // A region that rounds to zero pixels is widened to one, never a silent 0x0 crop.
        let rect = try! RegionOfInterest(x: 0.5, y: 0.5, width: 0.001, height: 0.001).pixelRect(imageWidth: 100, imageHeight: 100)
        #expect(rect.width == 1 && rect.height == 1)
        #expect(throws: RegionError.zeroSize(name: "width")) { try RegionOfInterest(x: 0.5, y: 0.5, width: 0.0001, height: 0.5) }
    }
}
