// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import ISBN
import Scanning

extension PrintedISBNReader {
    /// One connected run of ink: a character, part of one, or a few run together.
    struct Blob: Equatable {
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        var count: Int
        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }
        /// The longer side of its box: the type's height for a digit or a capital at any turn
        /// up to 45°.
        var size: Int { max(width, height) }
        var centre: Point2 { Point2(x: Double(minX + maxX + 1) / 2, y: Double(minY + maxY + 1) / 2) }
    }

    /// The 8-connected runs of ink in `image` (evened out: paper white): pixels darker than half
    /// way from the darkest around them to white, and than 215 (40 under the paper), at most 185
    /// (faint type, thin strokes blurred to grey, counts; the ink of bold type is not run together).
    /// "Around" is the 3×3 blocks of 1/64 of the shorter side about a pixel's block.
    static func blobs(in image: LuminanceImage) -> [Blob] {
        let (w, h) = (image.width, image.height)
        let pixels = image.pixels
        let block = max(4, min(w, h) / 64)
        let (bw, bh) = ((w + block - 1) / block, (h + block - 1) / block)
        var darkest = [UInt8](repeating: 255, count: bw * bh)
        for y in 0..<h { for x in 0..<w { darkest[(y / block) * bw + x / block] = min(darkest[(y / block) * bw + x / block], pixels[y * w + x]) } }
        var cut = [UInt8](repeating: 0, count: bw * bh)
        for by in 0..<bh {
            for bx in 0..<bw {
                var low: UInt8 = 255
                for yy in max(0, by - 1)...min(bh - 1, by + 1) { for xx in max(0, bx - 1)...min(bw - 1, bx + 1) { low = min(low, darkest[yy * bw + xx]) } }
                cut[by * bw + bx] = UInt8(min(215, max(185, (Int(low) + 255) / 2)))
            }
        }
        func ink(_ i: Int) -> Bool { pixels[i] < cut[(i / w / block) * bw + (i % w) / block] }
        var seen = [Bool](repeating: false, count: w * h)
        var found: [Blob] = []
        var stack: [Int] = []
        for start in 0..<(w * h) where !seen[start] && ink(start) {
            seen[start] = true
            stack.append(start)
            var blob = Blob(minX: start % w, minY: start / w, maxX: start % w, maxY: start / w, count: 0)
            while let index = stack.popLast() {
                let (x, y) = (index % w, index / w)
                blob.count += 1
                blob.minX = min(blob.minX, x); blob.maxX = max(blob.maxX, x)
                blob.minY = min(blob.minY, y); blob.maxY = max(blob.maxY, y)
                for ny in max(0, y - 1)...min(h - 1, y + 1) {
                    for nx in max(0, x - 1)...min(w - 1, x + 1) {
                        let n = ny * w + nx
                        if !seen[n] && ink(n) { seen[n] = true; stack.append(n) }
                    }
                }
            }
            found.append(blob)
        }
        return found
    }

    /// A line of type found from its characters' shapes: the characters, the line's direction
    /// (degrees clockwise from left to right, in [0, 180): which way it reads is not known yet)
    /// and the type's height.
    struct TypeLine {
        var blobs: [Blob]
        var angle: Double
        var height: Double
    }

    /// The lines of type on `image` (evened out: paper white) that could hold an ISBN, found
    /// without Tesseract's layout analysis, in any direction: for photos it reads poorly (a few
    /// lines beside a barcode or a price sticker, small type, a label turned by any angle).
    ///
    /// 1. The characters: runs of ink (``blobs(in:)``) 4 pixels to a quarter of the image's
    ///    shorter side in size, at most 8 times as long as wide (not bars, rules or frames).
    /// 2. The direction: each character's nearest neighbour of like size (half to twice, within 2.5
    ///    sizes) is most often the next character on its line, so the directions to them pile up
    ///    at the lines' direction. The one or two strongest directions (the second at least 20°
    ///    from the first and with a quarter of its weight: a label whose lines run two ways) are
    ///    taken.
    /// 3. The lines: characters of like height across that direction whose centres lie on one
    ///    line (within 0.4 of the height) and whose boxes follow each other within 4 heights (a
    ///    colon and a space in a wide type, `I S B N` spaced out), joined; each line's direction
    ///    is then fitted to its characters' centres (``fitted(_:_:)``).
    /// 4. A line that could hold an ISBN is at least 7 heights long, and its characters' boxes
    ///    add up to 6 heights along it (the keyword and 10 digits, some run together by blur).
    static func typeLines(in image: LuminanceImage) -> [TypeLine] {
        let limit = max(12, min(image.width, image.height) / 4)
        let characters = blobs(in: image).filter { blob in
            blob.size >= 4 && blob.size <= limit && Double(blob.size) <= 8 * Double(min(blob.width, blob.height))
        }
        guard characters.count >= 9 else { return [] }
        return lineDirections(of: characters).flatMap { linesAlong($0, of: characters) }
    }

    /// The directions (degrees in [0, 180)) in which `characters` line up: the peaks of the
    /// directions to each one's nearest neighbour of like size.
    static func lineDirections(of characters: [Blob]) -> [Double] {
        let sorted = characters.sorted { $0.centre.x < $1.centre.x }
        let xs = sorted.map(\.centre.x)
        var histogram = [Double](repeating: 0, count: 180)
        for (i, a) in sorted.enumerated() {
            let reach = 2.5 * Double(a.size)
            var best: (distance: Double, angle: Double)?
            var j = lowerBound(xs, xs[i] - reach)
            while j < sorted.count, xs[j] <= xs[i] + reach {
                defer { j += 1 }
                guard j != i else { continue }
                let b = sorted[j]
                let ratio = Double(b.size) / Double(a.size)
                guard ratio >= 0.5, ratio <= 2 else { continue }
                let dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y
                let distance = (dx * dx + dy * dy).squareRoot()
                guard distance <= reach, distance < best?.distance ?? .infinity else { continue }
                var angle = atan2(dy, dx) * 180 / .pi
                if angle < 0 { angle += 180 }
                if angle >= 180 { angle -= 180 }
                best = (distance, angle)
            }
            if let best { histogram[Int(best.angle) % 180] += 1 }
        }
        // Smoothed over 5 degrees, around the circle of directions.
        let smooth = (0..<180).map { d in (-2...2).reduce(0.0) { $0 + histogram[(d + $1 + 180) % 180] } }
        guard let top = smooth.indices.max(by: { smooth[$0] < smooth[$1] }), smooth[top] >= 5 else { return [] }
        var peaks = [top]
        if let second = smooth.indices.filter({ d in min(abs(d - top), 180 - abs(d - top)) >= 20 })
            .max(by: { smooth[$0] < smooth[$1] }), smooth[second] >= max(4, smooth[top] / 4) {
            peaks.append(second)
        }
        // Each peak refined to the mean of the directions within 3 degrees of it.
        return peaks.map { peak in
            var sum = 0.0, weight = 0.0
            for offset in -3...3 {
                let d = (peak + offset + 180) % 180
                sum += (Double(peak + offset) + 0.5) * histogram[d]
                weight += histogram[d]
            }
            let angle = weight > 0 ? sum / weight : Double(peak)
            return (angle + 180).truncatingRemainder(dividingBy: 180)
        }
    }

    /// The lines of `characters` running in direction `angle` that could hold an ISBN.
    ///
    /// Each character's box is measured in the line's frame (u along it, v across): type run
    /// together by blur makes a wide box but not a taller one, so the height across the line is
    /// what is compared, and the gap between boxes what is bridged.
    static func linesAlong(_ angle: Double, of characters: [Blob]) -> [TypeLine] {
        let (c, s) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
        struct Placed { var blob: Blob; var u0: Double; var u1: Double; var v0: Double; var v1: Double
            var height: Double { v1 - v0 }; var v: Double { (v0 + v1) / 2 } }
        let items = characters.map { blob -> Placed in
            let corners = [(blob.minX, blob.minY), (blob.maxX + 1, blob.minY), (blob.maxX + 1, blob.maxY + 1), (blob.minX, blob.maxY + 1)]
            let us = corners.map { Double($0.0) * c + Double($0.1) * s }, vs = corners.map { -Double($0.0) * s + Double($0.1) * c }
            return Placed(blob: blob, u0: us.min()!, u1: us.max()!, v0: vs.min()!, v1: vs.max()!)
        }.sorted { $0.u0 < $1.u0 }
        var parent = Array(items.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in items.indices {
            let a = items[i]
            var j = i + 1
            // Past 4 heights of the taller (at most 1.67 times `a`'s) nothing joins: the search
            // stays near each character however large the page's largest blob.
            while j < items.count, items[j].u0 <= a.u1 + 4 * 1.67 * a.height {
                let b = items[j]
                defer { j += 1 }
                let height = max(a.height, b.height), ratio = b.height / a.height
                guard ratio >= 0.6, ratio <= 1.67, b.u0 - a.u1 <= 4 * height, abs(b.v - a.v) <= 0.4 * height else { continue }
                parent[root(j)] = root(i)
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in items.indices { groups[root(i), default: []].append(i) }
        var lines: [(line: TypeLine, v: Double)] = []
        for members in groups.values {
            let placed = members.map { items[$0] }
            let heights = placed.map(\.height).sorted()
            let height = heights[heights.count / 2]
            guard let first = placed.map(\.u0).min(), let last = placed.map(\.u1).max(), last - first >= 7 * height,
                  placed.map({ ($0.u1 - $0.u0) / height }).reduce(0, +) >= 6 else { continue }
            let vs = placed.map(\.v).sorted()
            lines.append((TypeLine(blobs: placed.map(\.blob), angle: fitted(angle, placed.map(\.blob)), height: height), vs[vs.count / 2]))
        }
        return lines.sorted { $0.v < $1.v }.map(\.line)
    }

    /// The direction (in [0, 180)) of the line through the centres of `blobs` (least squares
    /// across `angle`, within 10 degrees of it): the directions to nearest neighbours are coarse
    /// where type runs together.
    static func fitted(_ angle: Double, _ blobs: [Blob]) -> Double {
        let (c, s) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
        let points = blobs.map { (u: $0.centre.x * c + $0.centre.y * s, v: -$0.centre.x * s + $0.centre.y * c) }
        let n = Double(points.count)
        let mu = points.map(\.u).reduce(0, +) / n, mv = points.map(\.v).reduce(0, +) / n
        let suu = points.reduce(0) { $0 + ($1.u - mu) * ($1.u - mu) }, suv = points.reduce(0) { $0 + ($1.u - mu) * ($1.v - mv) }
        guard suu > 0 else { return angle }
        let turn = atan(suv / suu) * 180 / .pi
        return abs(turn) <= 10 ? (angle + turn + 180).truncatingRemainder(dividingBy: 180) : angle
    }

    /// The first index of `values` (sorted) not below `value`.
    private static func lowerBound(_ values: [Double], _ value: Double) -> Int {
        var (low, high) = (0, values.count)
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension PrintedISBNReader {
    /// The readings of the ``typeLines(in:)`` of `flat` (evened out) that show the keyword: each
    /// line 6.5 pixels tall or more (smaller type reads wrong as often as right) is cut out along
    /// its direction, read once with every character, and turned over when that reading shows no
    /// keyword and is not confident (its direction says nothing of which way up it is); a line
    /// with the keyword is judged as a line of the layout analysis is.
    ///
    /// The lines are read the likeliest first (``likeliest(_:)``), while the budget's lines last.
    ///
    /// - Parameters:
    ///   - scale: `flat`'s size over the page's (1, or less for a page scaled down to the budget's
    ///     ``TextBudget/typeLinePixels``): polygons are given in pixels of the page.
    ///   - known: lines the layout analysis read with confidence on `flat` as it is: a type line
    ///     lying on those without the keyword is not read again.
    func readTypeLines(_ flat: LuminanceImage, scale: Double = 1, photo: Photo, known: [RecognizedLine],
                       accepting prefixes: ISBNPrefixes) -> [Reading] {
        var readings: [Reading] = []
        let plain = known.filter { !PrintedISBNLine.hasKeyword($0.text) }
        let candidates = Self.typeLines(in: flat).filter { $0.height >= 6.5 && !Self.isRead($0, by: plain) }
        for line in Self.likeliest(candidates) where work.lines < budget.lines {
            // The line's neighbourhood (3 type heights around its characters), cut out, then
            // turned: the band is read from that.
            let reach = Int((3 * line.height).rounded(.up))
            let x0 = max(0, line.blobs.map(\.minX).min()! - reach), y0 = max(0, line.blobs.map(\.minY).min()! - reach)
            let x1 = min(flat.width, line.blobs.map(\.maxX).max()! + 1 + reach), y1 = min(flat.height, line.blobs.map(\.maxY).max()! + 1 + reach)
            let area = flat.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            var local = line
            local.blobs = line.blobs.map { Blob(minX: $0.minX - x0, minY: $0.minY - y0, maxX: $0.maxX - x0, maxY: $0.maxY - y0, count: $0.count) }
            // Left to right first (the nearer of the two directions to 0°): most lines read so.
            let first = line.angle > 90 ? line.angle + 180 : line.angle
            for direction in [first, first + 180] {
                let rotation = area.rotated(degrees: -direction)
                let found = Self.recognizedLine(local, direction: direction, page: area, in: rotation.image)
                let (band, _) = Self.band(of: found, in: rotation.image, textHeight: 40, typical: line.height)
                let read = recognize(band, layout: .singleLine)
                var recognised = found
                recognised.text = read.map { $0.text }.joined(separator: " ")
                recognised.confidence = read.first?.confidence ?? 0
                guard PrintedISBNLine.hasKeyword(recognised.text) else {
                    if recognised.confidence >= 70 { break }
                    continue
                }
                let quarter = ((Int((direction / 90).rounded()) * 90) % 360 + 360) % 360
                // Its keyword is seen (maybe as `[SBN`): the digits after it are one reading.
                readings += judge(recognised, PrintedISBNLine.parse(recognised.text, keywordSeen: true), in: rotation.image, typical: line.height,
                                  orientation: quarter, toPage: { p in
                                      let q = rotation.toSource(p.x, p.y)
                                      return Point(x: Int(((q.0 + Double(x0)) / scale).rounded()), y: Int(((q.1 + Double(y0)) / scale).rounded()))
                                  }, photo: photo, accepting: prefixes)
                break
            }
        }
        return readings
    }

    /// `lines` in the order they are read: those about as long as an ISBN line first (8 to 40
    /// type heights: `ISBN 0-306-40615-2` to `ISBN-13: 978-4-10-101001-4 C0193 ¥476E`), then the
    /// rest, each group in the order found (top to bottom): on a page of many lines the budget's
    /// lines go to those that could be one.
    static func likeliest(_ lines: [TypeLine]) -> [TypeLine] {
        func sized(_ line: TypeLine) -> Bool {
            let (c, s) = (cos(line.angle * .pi / 180), sin(line.angle * .pi / 180))
            var low = Double.infinity, high = -Double.infinity
            for blob in line.blobs {
                let u0: Double = Double(blob.minX) * c + Double(blob.minY) * s
                let u1: Double = Double(blob.maxX + 1) * c + Double(blob.maxY + 1) * s
                low = min(low, u0, u1)
                high = max(high, u0, u1)
            }
            let length = high - low
            return length >= 8 * line.height && length <= 40 * line.height
        }
        return lines.filter(sized) + lines.filter { !sized($0) }
    }

    /// Whether `line` lies on lines the layout analysis read on the page as it is: at least 60 %
    /// of its characters' centres in the boxes of `lines` that run the same way (within 10°,
    /// across or down the page) and hold text (3 characters or more) of about its height (at
    /// most 2.5 times: not a picture the layout analysis took as one empty line).
    static func isRead(_ line: TypeLine, by lines: [RecognizedLine]) -> Bool {
        let across = line.angle.truncatingRemainder(dividingBy: 180)
        let level = min(across, 180 - across) <= 10, upright = abs(across - 90) <= 10
        guard level || upright else { return false }
        let lines = lines.filter { known in
            let (w, h) = (Double(known.box.right - known.box.left), Double(known.box.bottom - known.box.top))
            return known.text.filter { !$0.isWhitespace }.count >= 3 && (level ? w > h && known.textHeight <= 2.5 * line.height : h > w && w <= 2.5 * line.height)
        }
        guard !lines.isEmpty else { return false }
        let inside = line.blobs.count { blob in
            let c = blob.centre
            return lines.contains { Double($0.box.left) <= c.x && c.x <= Double($0.box.right) && Double($0.box.top) <= c.y && c.y <= Double($0.box.bottom) }
        }
        return Double(inside) >= 0.6 * Double(line.blobs.count)
    }

    /// `line` as a line of `image` (`page` turned by `direction` degrees counter-
    /// clockwise, as ``LuminanceImage/rotated(degrees:)`` turns it, so that the line reads left to
    /// right): its box from its characters' boxes along it and the type's height across it around
    /// their middle, its baseline the box's bottom edge.
    static func recognizedLine(_ line: TypeLine, direction: Double, page: LuminanceImage, in image: LuminanceImage) -> RecognizedLine {
        let (c, s) = (cos(direction * .pi / 180), sin(direction * .pi / 180))
        let (cx, cy) = (Double(page.width) / 2, Double(page.height) / 2)
        let (ox, oy) = (Double(image.width) / 2, Double(image.height) / 2)
        func frame(_ x: Double, _ y: Double) -> (u: Double, v: Double) {
            let (dx, dy) = (x - cx, y - cy)
            return (ox + c * dx + s * dy, oy - s * dx + c * dy)
        }
        let vs = line.blobs.map { frame($0.centre.x, $0.centre.y).v }.sorted()
        let middle = vs[vs.count / 2]
        let us = line.blobs.flatMap { blob in
            [(blob.minX, blob.minY), (blob.maxX + 1, blob.minY), (blob.maxX + 1, blob.maxY + 1), (blob.minX, blob.maxY + 1)]
                .map { frame(Double($0.0), Double($0.1)).u }
        }
        let left = Int(us.min()!.rounded(.down)), right = Int(us.max()!.rounded(.up))
        let (top, bottom) = (Int((middle - 0.55 * line.height).rounded(.down)), Int((middle + 0.55 * line.height).rounded(.up)))
        return RecognizedLine(text: "", confidence: 0, box: (left, top, right, bottom), baseline: (left, bottom, right, bottom))
    }
}
