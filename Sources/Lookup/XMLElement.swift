// SPDX-License-Identifier: Apache-2.0
internal import CXML2

/// An element of a parsed XML document, copied out of libxml2's tree (which is freed before
/// ``parse(_:)`` returns).
public struct XMLElement: Sendable, Equatable {
    /// The namespace URI (`http://purl.org/dc/elements/1.1/`), or `nil` when none.
    public var namespace: String?
    /// The local name, without prefix (`title`).
    public var name: String
    /// Attributes as written, `prefix:name` when prefixed (`xsi:type`), in document order.
    public var attributes: [(name: String, value: String)]
    /// The element's own text: its text and CDATA children in order, character references and the
    /// five predefined entities resolved; the text inside its child elements is theirs, not its.
    public var text: String
    /// Child elements in document order.
    public var children: [XMLElement]

    public static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
        lhs.namespace == rhs.namespace && lhs.name == rhs.name && lhs.text == rhs.text && lhs.children == rhs.children
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name) && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    /// The value of attribute `name` (`xsi:type`), or `nil`.
    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// The children named `name` in `namespace` (any namespace when `nil`).
    public func children(_ name: String, in namespace: String? = nil) -> [XMLElement] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// Parses `bytes` as an XML document and returns its root element.
    ///
    /// One pass of libxml2's streaming reader (xmlReaderForMemory, xmlTextReaderRead), so time and
    /// memory grow with the answer's bytes and no further: each element keeps its own text only,
    /// and a document type declaration is refused before any entity it declares is used (no
    /// XML_PARSE_NOENT, no XML_PARSE_DTDLOAD, with XML_PARSE_NONET), so a small answer cannot
    /// expand into a huge one and the parser never reads files or URLs. libxml2 2.9.14 (Debian 12)
    /// has no per-document amplification setting (xmlCtxtSetMaxAmplification is 2.11's).
    ///
    /// - Throws: ``XMLElement/ParseError`` with libxml2's message and line (xmlGetLastError), for a
    ///   document type declaration (``ParseError/isRefusal``), or saying that libxml2 cannot be
    ///   opened (Debian package libxml2).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> XMLElement {
        guard !bytes.isEmpty else { throw ParseError(message: "empty answer") }
        guard bytes.count <= Int(Int32.max) else { throw ParseError(message: "answer over 2 GiB") }
        let xml = try LookupLibraries.xml().get()
        xml.pointee.xmlResetLastError()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ParseError) -> XMLElement in
            try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(ParseError) -> XMLElement in
                guard let reader = xml.pointee.xmlReaderForMemory(chars.baseAddress!, Int32(chars.count), "response.xml", nil, options) else {
                    throw ParseError(message: "libxml2 could not start a reader (xmlReaderForMemory)")
                }
                defer { xml.pointee.xmlFreeTextReader(reader) }
                return try read(reader, xml)
            }
        }
    }

    /// Why a text is not XML, or why it is refused: one line.
    public struct ParseError: Error, Sendable, Equatable {
        public var message: String
        /// `true` when the document is well-formed so far but refused (a document type declaration).
        public var isRefusal = false
    }

    private static func string(_ chars: UnsafePointer<xmlChar>?) -> String? {
        chars.map { String(cString: $0) }
    }

    /// The reader's nodes in document order, folded into elements: a stack of the open ones, each
    /// closed into its parent's children (no recursion, whatever the depth).
    private static func read(_ reader: xmlTextReaderPtr, _ xml: UnsafePointer<isc_xml_api>) throws(ParseError) -> XMLElement {
        func type(_ value: xmlReaderTypes) -> Int32 { Int32(value.rawValue) }
        var open: [XMLElement] = []
        var root: XMLElement?
        func close() {
            let element = open.removeLast()
            if open.isEmpty { root = element } else { open[open.count - 1].children.append(element) }
        }
        while true {
            let status = xml.pointee.xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else {
                if let error = xml.pointee.xmlGetLastError(), let message = error.pointee.message {
                    let text = String(cString: message).split(separator: "\n").first.map(String.init) ?? ""
                    throw ParseError(message: "\(text) (line \(error.pointee.line))")
                }
                throw ParseError(message: "not an XML document")
            }
            switch xml.pointee.xmlTextReaderNodeType(reader) {
            case type(XML_READER_TYPE_DOCUMENT_TYPE):
                // Provider answers declare nothing; a declaration's entities are how a few
                // kilobytes become gigabytes (billion laughs), so none is read at all.
                throw ParseError(message: "XML with a document type declaration (<!DOCTYPE>) refused: entities are not expanded",
                                 isRefusal: true)
            case type(XML_READER_TYPE_ELEMENT):
                let empty = xml.pointee.xmlTextReaderIsEmptyElement(reader) == 1
                let uri = string(xml.pointee.xmlTextReaderConstNamespaceUri(reader))
                var element = XMLElement(namespace: uri?.isEmpty == false ? uri : nil,
                                         name: string(xml.pointee.xmlTextReaderConstLocalName(reader)) ?? "",
                                         attributes: [], text: "", children: [])
                while xml.pointee.xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    let name = string(xml.pointee.xmlTextReaderConstName(reader)) ?? ""
                    // Namespace declarations are the reader's attributes too; they are not the element's.
                    if name == "xmlns" || name.hasPrefix("xmlns:") { continue }
                    element.attributes.append((name, string(xml.pointee.xmlTextReaderConstValue(reader)) ?? ""))
                }
                _ = xml.pointee.xmlTextReaderMoveToElement(reader)
                open.append(element)
                if empty { close() }
            case type(XML_READER_TYPE_END_ELEMENT):
                if !open.isEmpty { close() }
            case type(XML_READER_TYPE_TEXT), type(XML_READER_TYPE_CDATA), type(XML_READER_TYPE_SIGNIFICANT_WHITESPACE),
                 type(XML_READER_TYPE_WHITESPACE):
                if !open.isEmpty, let value = string(xml.pointee.xmlTextReaderConstValue(reader)) {
                    open[open.count - 1].text += value
                }
            case type(XML_READER_TYPE_ENTITY_REFERENCE):
                // Only a declared entity gives one, and declarations are refused above.
                throw ParseError(message: "XML with an entity reference refused: entities are not expanded", isRefusal: true)
            default:
                break
            }
        }
        guard let root else { throw ParseError(message: "XML document without an element") }
        return root
    }
}
