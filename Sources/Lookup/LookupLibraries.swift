// SPDX-License-Identifier: Apache-2.0
internal import CCurl
internal import CJSON
internal import CXML2

/// libcurl, json-c and libxml2, opened with the first lookup (isc_curl_load, isc_json_load,
/// isc_xml_load: dlopen of libcurl.so.4, libjson-c.so.5 and libxml2.so.2), so that a scan never
/// maps them and their TLS, Kerberos, LDAP, SSH and ICU companions.
enum LookupLibraries {
    /// The loaders' tables (each written once, under the loader's lock, before it is returned;
    /// read-only after), or the reasons from dlerror(3).
    nonisolated(unsafe) private static let curlLoaded = load(isc_curl_load)
    nonisolated(unsafe) private static let jsonLoaded = load(isc_json_load)
    nonisolated(unsafe) private static let xmlLoaded = load(isc_xml_load)

    /// Calls one of the loaders (`isc_curl_load`, `isc_json_load`, `isc_xml_load`): its table of
    /// functions, or `nil` and the reason it wrote into a 256-byte buffer.
    private static func load<API>(_ loader: (UnsafeMutablePointer<CChar>, Int) -> UnsafePointer<API>?)
        -> (api: UnsafePointer<API>?, reason: String) {
        var message = [CChar](repeating: 0, count: 256)
        let api = message.withUnsafeMutableBufferPointer { loader($0.baseAddress!, $0.count) }
        return (api, api == nil ? String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "")
    }

    /// curl_global_init(CURL_GLOBAL_DEFAULT), once, after libcurl is opened.
    private static let curlInit: CURLcode? = curlLoaded.api.map { isc_curl_global_init($0) }

    /// libcurl's functions, initialised (curl_global_init).
    /// - Throws: ``HTTPError`` (`other`) naming the Debian package when libcurl cannot be opened
    ///   or initialised.
    static func curl() throws(HTTPError) -> UnsafePointer<isc_curl_api> {
        guard let api = curlLoaded.api else {
            throw HTTPError(kind: .other, message: "the book lookup needs libcurl (apt install libcurl4): \(curlLoaded.reason)")
        }
        guard curlInit == CURLE_OK else {
            throw HTTPError(kind: .other, message: "cannot initialise libcurl (curl_global_init)")
        }
        return api
    }

    /// json-c's functions, or why they cannot be had: `the book lookup needs libjson-c (apt
    /// install libjson-c5): <dlerror>`.
    static func json() -> Result<UnsafePointer<isc_json_api>, JSONNode.ParseError> {
        guard let api = jsonLoaded.api else {
            return .failure(JSONNode.ParseError(message: "the book lookup needs libjson-c (apt install libjson-c5): \(jsonLoaded.reason)"))
        }
        return .success(api)
    }

    /// libxml2's functions, or why they cannot be had: `the book lookup needs libxml2 (apt
    /// install libxml2): <dlerror>`.
    static func xml() -> Result<UnsafePointer<isc_xml_api>, XMLElement.ParseError> {
        guard let api = xmlLoaded.api else {
            return .failure(XMLElement.ParseError(message: "the book lookup needs libxml2 (apt install libxml2): \(xmlLoaded.reason)"))
        }
        return .success(api)
    }
}
