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
    /// The text of the element and its descendants, entities and character references resolved.
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
    /// The network is never used and external entities are not loaded (no XML_PARSE_NOENT, with
    /// XML_PARSE_NONET), so a document cannot make the parser read files or URLs.
    ///
    /// - Throws: ``XMLElement/ParseError`` with libxml2's message and line (xmlReadMemory,
    ///   xmlGetLastError), or saying that libxml2 cannot be opened (Debian package libxml2).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> XMLElement {
        guard !bytes.isEmpty else { throw ParseError(message: "empty answer") }
        let xml = try LookupLibraries.xml().get()
        xml.pointee.xmlResetLastError()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xml.pointee.xmlReadMemory(chars.baseAddress!, Int32(chars.count), "response.xml", nil, options)
            }
        }
        guard let document else {
            if let error = xml.pointee.xmlGetLastError(), let message = error.pointee.message {
                let text = String(cString: message).split(separator: "\n").first.map(String.init) ?? ""
                throw ParseError(message: "\(text) (line \(error.pointee.line))")
            }
            throw ParseError(message: "not an XML document")
        }
        defer { xml.pointee.xmlFreeDoc(document) }
        guard let root = xml.pointee.xmlDocGetRootElement(document) else { throw ParseError(message: "XML document without an element") }
        return element(root, xml)
    }

    /// Why a text is not XML: one line.
    public struct ParseError: Error, Sendable, Equatable { public var message: String }

    private static func string(_ chars: UnsafePointer<xmlChar>?) -> String? {
        chars.map { String(cString: $0) }
    }

    private static func element(_ node: xmlNodePtr, _ xml: UnsafePointer<isc_xml_api>) -> XMLElement {
        var attributes: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let local = string(current.pointee.name) ?? ""
            let name = string(current.pointee.ns?.pointee.prefix).map { "\($0):\(local)" } ?? local
            let value = xml.pointee.xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1)
            attributes.append((name, string(value) ?? ""))
            isc_xml_free(xml, value)
            attribute = current.pointee.next
        }
        var children: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(element(current, xml)) }
            child = current.pointee.next
        }
        let content = xml.pointee.xmlNodeGetContent(node)
        defer { isc_xml_free(xml, content) }
        return XMLElement(namespace: string(node.pointee.ns?.pointee.href), name: string(node.pointee.name) ?? "",
                          attributes: attributes, text: string(content) ?? "", children: children)
    }
}
