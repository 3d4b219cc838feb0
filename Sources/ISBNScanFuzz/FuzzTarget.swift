// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for isbnscan's Swift decoders, built only by `make fuzz` (Package.swift adds
// this target when ISBNSCAN_FUZZ is set). The first input byte picks what is fuzzed; the rest
// is its input:
//   0: ImageLoader.decode (format sniffing, the PNM decoder, and every C decoder behind it)
//   1: the EAN line decoder on one row of 8-bit samples
//   2: --roi / --roi-avfoundation parsing
//   3: ISBN judging of typed text and of zbar data
//   4: the candidate map (with its bar-length and edge measurements) and the structure fit on
//      a small picture: the next byte is its width (16 + 0…255), the rest its rows
//   5, 6, 7: the answer parser of Open Library, Google Books and NDL Search on one answer, for
//      the ISBNs the fixtures use; every field must come out within its limit, and an XML
//      tree's text can never be more than the answer's bytes
import Imaging
import ISBN
@testable import Lookup
import Records
@testable import Scanning

/// The ISBNs of the provider fixtures (Tests/ProviderServer), whose answers seed the corpus.
let fuzzISBNs = ["9780306406157", "9780451526533", "9780140328721", "9784048930659", "9784101010014"]
    .compactMap { ISBN.judge(typed: $0, accepting: .with979).isbn }

/// Checks the field limits of every book `provider` finds in `answer`.
func fuzzAnswer(_ answer: [UInt8], _ provider: Provider) {
    if provider == .ndl, let root = try? XMLElement.parse(answer) {
        var total = 0
        var stack = [root]
        while let element = stack.popLast() {
            total += element.text.utf8.count
            stack += element.children
        }
        precondition(total <= answer.count)
    }
    guard let books = try? ResponseParser.books(answer, from: provider, isbns: fuzzISBNs) else { return }
    for book in books.values {
        precondition((book.title?.unicodeScalars.count ?? 0) <= ResponseParser.titleLimit)
        precondition((book.subtitle?.unicodeScalars.count ?? 0) <= ResponseParser.titleLimit)
        let others = [book.titleReading, book.byStatement, book.publisher, book.published, book.language, book.cover, book.url]
            + (book.authors ?? []) + (book.subjects ?? [])
        precondition(others.allSatisfy { ($0?.unicodeScalars.count ?? 0) <= ResponseParser.fieldLimit })
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let rest = UnsafeRawBufferPointer(start: start + 1, count: count - 1)
    switch start[0] % 8 {
    case 0:
        var options = DecodeOptions(maxPixels: 4_000_000)
        options.halveJPEGAbovePixels = 1_000_000
        if let decoded = try? ImageLoader.decode(rest, path: "fuzz", options: options) {
            precondition(decoded.image.width > 0 && decoded.image.height > 0)
        }
    case 1:
        _ = EANLineDecoder.decode(rest.bindMemory(to: UInt8.self))
    case 2:
        let text = String(decoding: rest, as: UTF8.self)
        _ = try? RegionOfInterest(parsing: text)
        _ = try? RegionOfInterest(parsingAVFoundation: text)
    case 3:
        let text = String(decoding: rest, as: UTF8.self)
        _ = ISBN.judge(typed: text)
        _ = ISBN.judge(ean: text)
    case 5: fuzzAnswer(Array(rest), .openLibrary)
    case 6: fuzzAnswer(Array(rest), .googleBooks)
    case 7: fuzzAnswer(Array(rest), .ndl)
    default:
        guard rest.count > 1 else { return 0 }
        let width = 16 + Int(rest[0]), pixels = Array(rest.dropFirst())
        let height = pixels.count / width
        guard height >= 16 else { return 0 }
        let image = LuminanceImage(width: width, height: height, pixels: Array(pixels.prefix(width * height)))
        for candidate in CandidateMap.find(in: image).prefix(2) {
            if let spacing = candidate.edgeSpacing, let edgeWidth = candidate.edgeWidth {
                precondition(spacing > 0 && edgeWidth >= 0 && edgeWidth.isFinite)
            }
            _ = MultiPassDecoder.templateSymbols(image, around: candidate)
        }
    }
    return 0
}
