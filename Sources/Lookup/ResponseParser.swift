// SPDX-License-Identifier: Apache-2.0
import ISBN
import Records

/// Turns each provider's documented answer into ``BookMetadata``.
///
/// Shapes read: Open Library's Books API with `jscmd=data` (an object keyed by the bibkeys asked,
/// `{}` for none known); Google Books' volume list (`{"totalItems", "items": [{"volumeInfo"}]}`);
/// NDL Search's OpenSearch RSS 2.0 (`rss/channel/item` with `dc:`, `dcndl:` and `dcterms:` elements).
enum ResponseParser {
    /// Why an answer could not be read: one line.
    struct Failure: Error, Equatable { var message: String }

    /// The most Unicode scalars kept of a title or subtitle (2,000), the cut marked with `…`.
    static let titleLimit = 2_000
    /// The most Unicode scalars kept of any other text field, each author and subject on its own
    /// (10,000), the cut marked with `…`.
    static let fieldLimit = 10_000

    /// The books `provider`'s answer `body` lists among `isbns`, keyed by their 13 digits, each
    /// field cut to its limit (``titleLimit``, ``fieldLimit``): the one way every answer is read,
    /// parsed once however many ISBNs it answers.
    static func books(_ body: [UInt8], from provider: Provider, isbns: [ISBN]) throws(Failure) -> [String: BookMetadata] {
        var books: [String: BookMetadata] = [:]
        switch provider {
        case .openLibrary: books = try openLibrary(body, isbns: isbns)
        case .googleBooks:
            let root = try json(body)
            for isbn in isbns { books[isbn.isbn13] = try googleBooks(root, isbn: isbn) }
        case .ndl:
            let root = try xml(body)
            for isbn in isbns { books[isbn.isbn13] = try ndl(root, isbn: isbn) }
        }
        return books.mapValues(bounded)
    }

    /// `book` with each text field cut to its limit.
    static func bounded(_ book: BookMetadata) -> BookMetadata {
        func cut(_ text: String?, _ limit: Int) -> String? {
            guard let text, text.unicodeScalars.count > limit else { return text }
            var kept = String.UnicodeScalarView(text.unicodeScalars.prefix(limit - 1))
            kept.append("…")
            return String(kept)
        }
        func field(_ text: String?) -> String? { cut(text, fieldLimit) }
        return BookMetadata(
            source: book.source, title: cut(book.title, titleLimit), titleReading: field(book.titleReading),
            subtitle: cut(book.subtitle, titleLimit), authors: book.authors?.map { field($0)! }, byStatement: field(book.byStatement),
            publisher: field(book.publisher), published: field(book.published), pages: book.pages, language: field(book.language),
            subjects: book.subjects?.map { field($0)! }, cover: field(book.cover), url: field(book.url))
    }

    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcndl = "http://ndl.go.jp/dcndl/terms/"
    static let dcterms = "http://purl.org/dc/terms/"

    /// The books Open Library knows among `isbns`, keyed by their 13 digits.
    static func openLibrary(_ body: [UInt8], isbns: [ISBN]) throws(Failure) -> [String: BookMetadata] {
        let root = try json(body)
        guard case .object = root else { throw Failure(message: "unexpected JSON: not an object keyed by bibkey") }
        var books: [String: BookMetadata] = [:]
        for isbn in isbns {
            guard let entry = root["ISBN:\(isbn.isbn13)"] ?? isbn.isbn10.flatMap({ root["ISBN:\($0)"] }),
                  case .object = entry else { continue }
            let cover = entry["cover"]
            books[isbn.isbn13] = BookMetadata(
                source: Provider.openLibrary.rawValue, title: clean(entry["title"]?.string), subtitle: clean(entry["subtitle"]?.string),
                authors: names(entry["authors"]), byStatement: clean(entry["by_statement"]?.string),
                publisher: joined(names(entry["publishers"])), published: clean(entry["publish_date"]?.string),
                pages: entry["number_of_pages"]?.integer ?? entry["pagination"]?.string.flatMap(pages(in:)),
                language: nil, subjects: names(entry["subjects"]),
                cover: clean((cover?["large"] ?? cover?["medium"] ?? cover?["small"])?.string), url: clean(entry["url"]?.string))
        }
        return books
    }

    /// The volume Google Books lists for `isbn`, or `nil` when it lists none.
    static func googleBooks(_ root: JSONNode, isbn: ISBN) throws(Failure) -> BookMetadata? {
        guard case .object = root else { throw Failure(message: "unexpected JSON: not a volume list") }
        let items = root["items"]?.elements ?? []
        // Only the volume whose identifiers name this ISBN: a search by ISBN can also return
        // other volumes, and one without identifiers may be any book.
        let codes = Set([isbn.isbn13] + (isbn.isbn10.map { [$0] } ?? []))
        let matching = items.first { item in
            (item["volumeInfo"]?["industryIdentifiers"]?.elements ?? []).contains { codes.contains($0["identifier"]?.string ?? "") }
        }
        guard let info = matching?["volumeInfo"] else { return nil }
        let links = info["imageLinks"]
        let pageCount = info["pageCount"]?.integer
        return BookMetadata(
            source: Provider.googleBooks.rawValue, title: clean(info["title"]?.string), subtitle: clean(info["subtitle"]?.string),
            authors: strings(info["authors"]), publisher: clean(info["publisher"]?.string),
            published: clean(info["publishedDate"]?.string), pages: pageCount == 0 ? nil : pageCount,
            language: clean(info["language"]?.string), subjects: strings(info["categories"]),
            cover: clean((links?["thumbnail"] ?? links?["smallThumbnail"])?.string),
            url: clean((info["infoLink"] ?? info["canonicalVolumeLink"])?.string))
    }

    /// The record NDL Search lists for `isbn`, or `nil` when it lists none or only other books.
    static func ndl(_ root: XMLElement, isbn: ISBN) throws(Failure) -> BookMetadata? {
        guard root.name == "rss", let channel = root.children("channel").first else {
            throw Failure(message: "unexpected XML: <\(root.name)> where RSS (<rss><channel>) was expected")
        }
        let codes = Set([isbn.isbn13] + (isbn.isbn10.map { [$0] } ?? []))
        // Only the record whose ISBN (13 or 10 digits, however hyphenated) is the one asked: a search
        // by ISBN can list another book (another edition, the set), and its metadata is not this book's.
        let item = channel.children("item").first { item in
            item.children("identifier", in: dc).contains { identifier in
                identifier.attribute("xsi:type") == "dcndl:ISBN"
                    && codes.contains(String(identifier.text.uppercased().filter { $0.isASCII && ($0.isNumber || $0 == "X") }))
            }
        }
        guard let item else { return nil }
        func first(_ name: String, _ namespace: String?) -> String? { clean(item.children(name, in: namespace).first?.text) }
        func all(_ name: String, _ namespace: String) -> [String]? {
            let values = item.children(name, in: namespace).compactMap { clean($0.text) }
            return values.isEmpty ? nil : values
        }
        // Untyped dc:subject elements are headings; typed ones (dcndl:NDC10, dcndl:NDLC) are class numbers.
        let subjects = item.children("subject", in: dc).filter { $0.attribute("xsi:type") == nil }.compactMap { clean($0.text) }
        return BookMetadata(
            source: Provider.ndl.rawValue, title: first("title", dc) ?? first("title", nil),
            titleReading: first("titleTranscription", dcndl), authors: all("creator", dc), publisher: joined(all("publisher", dc)),
            published: first("issued", dcterms) ?? first("date", dc), pages: first("extent", dc).flatMap(pages(in:)),
            language: first("language", dc), subjects: subjects.isEmpty ? nil : subjects, cover: nil, url: first("link", nil))
    }

    // MARK: - Untidy values

    private static func json(_ body: [UInt8]) throws(Failure) -> JSONNode {
        do { return try JSONNode.parse(body) } catch { throw Failure(message: "malformed JSON (\(error.message))") }
    }

    private static func xml(_ body: [UInt8]) throws(Failure) -> XMLElement {
        do { return try XMLElement.parse(body) } catch {
            throw Failure(message: error.isRefusal ? error.message : "malformed XML (\(error.message))")
        }
    }

    /// `text` with HTML entities decoded and outer white space removed; `nil` when nothing is left.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let decoded = HTMLEntities.decode(text)
        let trimmed = decoded.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// The `name` of each object in an array (`[{"name": …}]`, Open Library's authors, publishers
    /// and subjects) or each string; `nil` when none.
    private static func names(_ node: JSONNode?) -> [String]? {
        let values = (node?.elements ?? []).compactMap { clean($0["name"]?.string ?? $0.string) }
        return values.isEmpty ? nil : values
    }

    private static func strings(_ node: JSONNode?) -> [String]? {
        let values = (node?.elements ?? []).compactMap { clean($0.string) }
        return values.isEmpty ? nil : values
    }

    private static func joined(_ values: [String]?) -> String? { values?.joined(separator: "; ") }

    /// The page count in an extent or pagination (`349p`, `xii, 345 p.`, `239 pages`): the
    /// number before the first `p`.
    static func pages(in text: String) -> Int? {
        var number = ""
        var afterNumber = false
        for character in text {
            if character.isASCII && character.isNumber {
                if afterNumber { number = "" }
                afterNumber = false
                number.append(character)
            } else if !number.isEmpty && (character == "p" || character == "P") {
                return Int(number)
            } else if character == " " && !number.isEmpty && !afterNumber {
                afterNumber = true
            } else {
                number = ""
                afterNumber = false
            }
        }
        return nil
    }
}
