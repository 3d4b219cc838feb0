// SPDX-License-Identifier: Apache-2.0
/// A bibliographic service `lookup` asks, with its published limits.
public enum Provider: String, Sendable, CaseIterable, Hashable {
    /// Open Library's Books API: `GET /api/books?bibkeys=ISBN:a,ISBN:b&format=json&jscmd=data`.
    case openLibrary = "openlibrary"
    /// Google Books: `GET /books/v1/volumes?q=isbn:<isbn13>`.
    case googleBooks = "google"
    /// The National Diet Library's NDL Search: `GET /api/opensearch?isbn=<isbn13>` (RSS 2.0 with DC-NDL elements).
    case ndl = "ndl"

    /// The order asked when none is given: Open Library, then Google Books, then NDL Search;
    /// for a 978-4 ISBN (Japan) NDL Search first, the others knowing few Japanese books.
    public static let defaultOrder: [Provider] = [.openLibrary, .googleBooks, .ndl]

    /// `scheme://host[:port]` of the public service.
    public var defaultBase: String {
        switch self {
        case .openLibrary: return "https://openlibrary.org"
        case .googleBooks: return "https://www.googleapis.com"
        case .ndl: return "https://ndlsearch.ndl.go.jp"
        }
    }

    /// The environment variable that replaces ``defaultBase`` (scheme, host and port only; the
    /// path stays the provider's): for mirrors and tests.
    public var baseVariable: String {
        switch self {
        case .openLibrary: return "ISBNSCAN_OPENLIBRARY_URL"
        case .googleBooks: return "ISBNSCAN_GOOGLE_BOOKS_URL"
        case .ndl: return "ISBNSCAN_NDL_URL"
        }
    }

    /// ISBNs asked in one request: Open Library's bibkeys take a list (kept short enough for any
    /// URL limit); the others one ISBN each.
    public var batchSize: Int { self == .openLibrary ? 20 : 1 }

    /// Requests per second kept to. Open Library asks for at most 1/s from anonymous clients and
    /// allows 3/s to a User-Agent naming the application and a contact (past it: HTTP 403).
    /// Google Books publishes per-day quotas only; NDL Search asks for requests one at a time and
    /// not in rapid succession: 1/s for both.
    public func requestsPerSecond(withContact: Bool) -> Double {
        self == .openLibrary && withContact ? 3 : 1
    }

    /// The request URL for `isbns` (13 digits each) against `base` (`scheme://host[:port]`).
    func url(base: String, isbns: [String]) -> String {
        switch self {
        case .openLibrary:
            let keys = isbns.map { "ISBN:\($0)" }.joined(separator: ",")
            return "\(base)/api/books?bibkeys=\(keys)&format=json&jscmd=data"
        case .googleBooks: return "\(base)/books/v1/volumes?q=isbn:\(isbns[0])"
        case .ndl: return "\(base)/api/opensearch?isbn=\(isbns[0])"
        }
    }

    /// `scheme://host[:port]` from a base URL given by the user (a trailing `/` is allowed), or
    /// why it cannot be one.
    public static func base(from text: String) -> Result<String, BaseURLError> {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return .failure(BaseURLError(message: "'\(text)' is not an http:// or https:// URL"))
        }
        let authority = HTTPClient.afterScheme(text).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let rest = text[authority.endIndex...]
        guard !authority.isEmpty, !authority.contains("@") else {
            return .failure(BaseURLError(message: "'\(text)' has no host (give scheme, host and port: http://127.0.0.1:8080)"))
        }
        guard rest.isEmpty || rest == "/" else {
            return .failure(BaseURLError(message: "'\(text)' has a path; give scheme, host and port only (the path is the provider's)"))
        }
        return .success(String(text[..<authority.endIndex]))
    }

    /// Why a base URL was refused: one line.
    public struct BaseURLError: Error, Sendable, Equatable { public var message: String }
}
