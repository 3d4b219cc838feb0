// SPDX-License-Identifier: Apache-2.0
internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP answer: status, content type, body and the server's `Retry-After`.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status of the last answer (after redirects), e.g. 200, 404, 429.
    public var status: Int
    /// The `Content-Type` header as sent (`application/json; charset=utf-8`), or `nil`.
    public var contentType: String?
    /// The body's bytes, at most ``HTTPClient/maximumBodyBytes``.
    public var body: [UInt8]
    /// `Retry-After` in seconds (the seconds or the HTTP-date form; CURLINFO_RETRY_AFTER), or `nil`
    /// when absent or 0 (libcurl reports both as 0: the caller then backs off as without one).
    public var retryAfter: Int?
    /// The URL answered, after redirects.
    public var url: String

    /// The media type without parameters, lower case (`application/json`), or `nil`.
    public var mediaType: String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return String(type.filter { $0 != " " && $0 != "\t" }).lowercased()
    }
}

/// A transfer that gave no usable answer, as a value: what failed and libcurl's own words.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The host name did not resolve (CURLE_COULDNT_RESOLVE_HOST, _PROXY).
        case dns
        /// No connection (CURLE_COULDNT_CONNECT): the server is down or the port closed.
        case unreachable
        /// The whole transfer took longer than the timeout (CURLE_OPERATION_TIMEDOUT), a slow drip included.
        case timeout
        /// More redirects than allowed (CURLE_TOO_MANY_REDIRECTS), a redirect loop included.
        case tooManyRedirects
        /// A URL or redirect outside http/https (CURLE_UNSUPPORTED_PROTOCOL), or a redirect from
        /// https to plain http.
        case protocolRefused
        /// The body ended before its announced length (CURLE_PARTIAL_FILE, CURLE_RECV_ERROR).
        case truncated
        /// The body is over ``HTTPClient/maximumBodyBytes`` (CURLE_FILESIZE_EXCEEDED, or the cap hit while receiving).
        case tooLarge
        /// The server's certificate could not be verified, or TLS failed (CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_*).
        case tls
        /// Any other libcurl failure.
        case other
    }
    public var kind: Kind
    /// One line: what failed, then libcurl's error buffer in parentheses.
    public var message: String
    public var description: String { message }
}

/// An HTTP(S) GET client over one libcurl easy handle, reused across requests (connections kept alive).
///
/// Policy, fixed here so no caller can weaken it: only `http` and `https` for the first URL, and
/// a redirect never lowers the scheme: only `https` after an https URL (CURLOPT_PROTOCOLS_STR,
/// CURLOPT_REDIR_PROTOCOLS_STR, and the answered URL checked again); at most ``maximumRedirects``
/// redirects; TLS peer and host always verified against the system CA certificates; proxies from the
/// environment (`http_proxy`, `https_proxy`, `no_proxy`), as libcurl reads them; bodies over
/// ``maximumBodyBytes`` refused; HTTP/2 over TLS when the server offers it (libcurl's default).
///
/// Not `Sendable`: a libcurl easy handle is used by one thread at a time. One client per worker.
public final class HTTPClient {
    /// Bodies larger than this are refused (4 MiB: a provider's answer for a batch of books is a few
    /// kilobytes; the cap keeps a wrong or hostile server from filling memory).
    public static let maximumBodyBytes = 4 << 20
    /// Redirects followed before ``HTTPError/Kind/tooManyRedirects`` (5).
    public static let maximumRedirects = 5

    private let handle: UnsafeMutableRawPointer
    /// libcurl's functions (``LookupLibraries/curl()``).
    private let curl: UnsafePointer<isc_curl_api>
    private let userAgent: String
    private let certificateAuthorities: String?
    /// libcurl writes its last error here (CURLOPT_ERRORBUFFER); it lives as long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// A client sending `User-Agent: <userAgent>`.
    ///
    /// - Throws: ``HTTPError`` (`other`) when libcurl cannot be opened (`the book lookup needs
    ///   libcurl (apt install libcurl4): …`) or initialised (curl_global_init, curl_easy_init).
    public convenience init(userAgent: String) throws(HTTPError) {
        try self.init(userAgent: userAgent, certificateAuthorities: nil)
    }

    /// A client that also trusts the certificates in the PEM file `certificateAuthorities`
    /// (CURLOPT_CAINFO): for the tests' local https server only.
    init(userAgent: String, certificateAuthorities: String?) throws(HTTPError) {
        let curl = try LookupLibraries.curl()
        guard let handle = curl.pointee.easy_init() else {
            throw HTTPError(kind: .other, message: "cannot initialise libcurl (curl_easy_init)")
        }
        self.handle = handle
        self.curl = curl
        self.userAgent = userAgent
        self.certificateAuthorities = certificateAuthorities
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl.pointee.easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Collects a body up to the cap, and the headers libcurl does not parse for us.
    private final class Transfer {
        var body: [UInt8] = []
        var overCap = false
    }

    /// GETs `url`, waiting at most `timeout` seconds for the whole answer (connection, redirects
    /// and body: a server that drips bytes slowly times out too).
    ///
    /// Any HTTP status is an answer (the caller decides what 404 or 429 means); only a transfer
    /// that produced no complete answer is an error. Wraps curl_easy_perform.
    public func get(_ url: String, timeout: Double) -> Result<HTTPResponse, HTTPError> {
        curl.pointee.easy_reset(handle)
        errorBuffer[0] = 0
        let transfer = Transfer()
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }
        let milliseconds = max(1, Int(timeout * 1000))
        var setupFailed = false
        func check(_ code: CURLcode) { if code != CURLE_OK { setupFailed = true } }
        check(isc_curl_setopt_string(curl, handle, CURLOPT_URL, url))
        check(isc_curl_setopt_pointer(curl, handle, CURLOPT_ERRORBUFFER, errorBuffer))
        check(isc_curl_setopt_string(curl, handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        let secure = Self.scheme(of: url) == "https"
        // A redirect from https to http would send the request, and take the answer, in clear.
        check(isc_curl_setopt_string(curl, handle, CURLOPT_REDIR_PROTOCOLS_STR, secure ? "https" : "http,https"))
        if let certificateAuthorities { check(isc_curl_setopt_string(curl, handle, CURLOPT_CAINFO, certificateAuthorities)) }
        check(isc_curl_setopt_long(curl, handle, CURLOPT_FOLLOWLOCATION, 1))
        check(isc_curl_setopt_long(curl, handle, CURLOPT_MAXREDIRS, Int(Self.maximumRedirects)))
        check(isc_curl_setopt_long(curl, handle, CURLOPT_SSL_VERIFYPEER, 1))
        check(isc_curl_setopt_long(curl, handle, CURLOPT_SSL_VERIFYHOST, 2))
        check(isc_curl_setopt_long(curl, handle, CURLOPT_TIMEOUT_MS, milliseconds))
        check(isc_curl_setopt_long(curl, handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds))
        check(isc_curl_setopt_long(curl, handle, CURLOPT_NOSIGNAL, 1))
        check(isc_curl_setopt_off(curl, handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(Self.maximumBodyBytes)))
        check(isc_curl_setopt_string(curl, handle, CURLOPT_USERAGENT, userAgent))
        // "" asks for every encoding libcurl can decode (gzip, deflate, br when built in).
        check(isc_curl_setopt_string(curl, handle, CURLOPT_ACCEPT_ENCODING, ""))
        check(isc_curl_setopt_pointer(curl, handle, CURLOPT_WRITEDATA, context.toOpaque()))
        check(isc_curl_setopt_callback(curl, handle, CURLOPT_WRITEFUNCTION) { data, size, count, pointer in
            let transfer = Unmanaged<Transfer>.fromOpaque(pointer!).takeUnretainedValue()
            let length = size * count
            guard transfer.body.count + length <= HTTPClient.maximumBodyBytes else {
                transfer.overCap = true
                return 0
            }
            if let data, length > 0 {
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
                }
            }
            return length
        })
        if setupFailed {
            return .failure(HTTPError(kind: .other, message: "libcurl refused an option (curl_easy_setopt)\(detail)"))
        }
        let code = curl.pointee.easy_perform(handle)
        var effective: UnsafePointer<CChar>?
        _ = isc_curl_getinfo_string(curl, handle, CURLINFO_EFFECTIVE_URL, &effective)
        // A refused redirect leaves its target as the effective URL.
        let answered = effective.map { String(cString: $0) } ?? url
        if secure, Self.scheme(of: answered) != "https", code == CURLE_OK || code == CURLE_UNSUPPORTED_PROTOCOL {
            return .failure(lowered(url, to: answered))
        }
        guard code == CURLE_OK else { return .failure(error(code, url: url, overCap: transfer.overCap)) }
        var status = 0
        _ = isc_curl_getinfo_long(curl, handle, CURLINFO_RESPONSE_CODE, &status)
        var retryAfter: curl_off_t = 0
        _ = isc_curl_getinfo_off(curl, handle, CURLINFO_RETRY_AFTER, &retryAfter)
        var type: UnsafePointer<CChar>?
        _ = isc_curl_getinfo_string(curl, handle, CURLINFO_CONTENT_TYPE, &type)
        return .success(HTTPResponse(status: status, contentType: type.map { String(cString: $0) }, body: transfer.body,
                                     retryAfter: retryAfter > 0 ? Int(retryAfter) : nil,
                                     url: answered))
    }

    /// The refusal of a redirect from the https `url` to `target`, another scheme.
    private func lowered(_ url: String, to target: String) -> HTTPError {
        let scheme = Self.scheme(of: target).isEmpty ? "another scheme" : Self.scheme(of: target)
        return HTTPError(kind: .protocolRefused, message: "\(Self.host(of: url)) redirected an https request to \(scheme) "
                         + "(\(Self.host(of: target))); refused: a redirect may not lower https to \(scheme)")
    }

    /// The scheme of `url`, lower case (`https`), or `""` when it has none.
    static func scheme(of url: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return "" }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return "" }
        return scheme.lowercased()
    }

    /// ` (libcurl's message)`, or `""` when it wrote none.
    private var detail: String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? "" : " (\(text))"
    }

    private func error(_ code: CURLcode, url: String, overCap: Bool) -> HTTPError {
        let host = Self.host(of: url)
        let cap = "\(Self.maximumBodyBytes >> 20) MiB"
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return HTTPError(kind: .dns, message: "cannot resolve \(host)\(detail)")
        case CURLE_COULDNT_CONNECT:
            return HTTPError(kind: .unreachable, message: "cannot connect to \(host)\(detail)")
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPError(kind: .timeout, message: "no complete answer from \(host) in time\(detail)")
        case CURLE_TOO_MANY_REDIRECTS:
            return HTTPError(kind: .tooManyRedirects, message: "more than \(Self.maximumRedirects) redirects from \(host)\(detail)")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return HTTPError(kind: .protocolRefused, message: "only http and https URLs are followed\(detail)")
        case CURLE_FILESIZE_EXCEEDED:
            return HTTPError(kind: .tooLarge, message: "answer from \(host) over the \(cap) cap\(detail)")
        case CURLE_WRITE_ERROR where overCap:
            return HTTPError(kind: .tooLarge, message: "answer from \(host) over the \(cap) cap")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return HTTPError(kind: .truncated, message: "answer from \(host) cut short\(detail)")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER:
            return HTTPError(kind: .tls, message: "TLS with \(host) failed\(detail)")
        default:
            let text = curl.pointee.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
            return HTTPError(kind: .other, message: "request to \(host) failed: \(text)\(detail)")
        }
    }

    /// `host:port` of `url` (what an error names), or the URL itself when it has no `//`.
    static func host(of url: String) -> String {
        String(afterScheme(url).prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }

    /// What follows the first `//` of `url` (the whole URL when it has none).
    static func afterScheme(_ url: String) -> Substring {
        var previous: Character?
        for index in url.indices {
            if previous == "/" && url[index] == "/" { return url[url.index(after: index)...] }
            previous = url[index]
        }
        return Substring(url)
    }
}
