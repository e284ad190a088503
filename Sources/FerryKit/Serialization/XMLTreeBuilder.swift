import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `XMLTreeBuilder` is the `XMLParser` delegate that collects an ``XMLDocumentTree``.
///
/// One builder serves one parse, on the calling thread; it is never shared.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// The first error the parser reported, with its line and column.
    private(set) var firstError: (code: Int, line: Int, column: Int)?
    private(set) var root: XMLDocumentTree.Element?
    /// Whether the document nested deeper than `maximumDepth` (the parse was then stopped).
    private(set) var tooDeep = false
    private var open: [XMLDocumentTree.Element] = []
    private let maximumDepth: Int

    /// `init(maximumDepth:)` makes a builder that stops the parse past `maximumDepth` nested
    /// elements (no limit by default).
    init(maximumDepth: Int = .max) {
        self.maximumDepth = maximumDepth
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard open.count < maximumDepth else {
            tooDeep = true
            parser.abortParsing()
            return
        }
        let sorted = attributes.sorted { ParameterValue.precedes($0.key, $1.key) }.map { XMLDocumentTree.Attribute(name: $0.key, value: $0.value) }
        open.append(XMLDocumentTree.Element(name: elementName, attributes: sorted))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(.element(element))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard firstError == nil else { return }
        firstError = ((parseError as NSError).code, parser.lineNumber, parser.columnNumber)
    }

    private func appendText(_ text: String) {
        guard !open.isEmpty, !text.isEmpty else { return }
        let last = open.count - 1
        if case .text(let previous)? = open[last].children.last {
            open[last].children[open[last].children.count - 1] = .text(previous + text)
        } else {
            open[last].children.append(.text(text))
        }
    }
}

/// `XMLInputCheck` keeps from Foundation's `XMLParser` the documents it would crash on. libxml2
/// hands FoundationXML names with bytes that are not UTF-8, which it traps on, and a
/// processing instruction without data (`<?name?>`) as a null pointer, which it reads. So a
/// document read as UTF-8 (no BOM of another encoding, no other encoding declared) must be
/// valid UTF-8, and no document may hold a processing instruction without data.
enum XMLInputCheck {
    /// `problem(in:)` is why `data` cannot be given to the parser, `nil` when it can.
    static func problem(in data: Data) -> String? {
        if let name = emptyProcessingInstruction(in: data) {
            return "a processing instruction without data (<?\(name)?>) is not read"
        }
        // A UTF-16 or UTF-32 document (its BOM) is converted by libxml2 before any callback.
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return nil
        }
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        if let declared = declaredEncoding(body), !["utf-8", "utf8"].contains(declared) { return nil }
        return String(validating: body, as: UTF8.self) == nil ? "the document is not valid UTF-8" : nil
    }

    /// `emptyProcessingInstruction(in:)` is the target of the first `<?target?>` (blanks
    /// allowed before `?>`) in `data`, in any encoding that keeps ASCII as bytes; `nil` when
    /// there is none. A UTF-16 document is checked on its ASCII bytes with the NULs skipped.
    static func emptyProcessingInstruction(in data: Data) -> String? {
        let bytes = data.filter { $0 != 0 }
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            var cursor = bytes.index(after: open)
            guard cursor < bytes.endIndex else { return nil }
            index = cursor
            guard bytes[cursor] == UInt8(ascii: "?") else { continue }
            cursor = bytes.index(after: cursor)
            let nameStart = cursor
            while cursor < bytes.endIndex, !blank.contains(bytes[cursor]), bytes[cursor] != UInt8(ascii: "?") { cursor = bytes.index(after: cursor) }
            let name = bytes[nameStart..<cursor]
            while cursor < bytes.endIndex, blank.contains(bytes[cursor]) { cursor = bytes.index(after: cursor) }
            let next = bytes.index(after: cursor)
            if cursor < bytes.endIndex, next < bytes.endIndex, bytes[cursor] == UInt8(ascii: "?"), bytes[next] == UInt8(ascii: ">") {
                return String(decoding: name.prefix(40), as: UTF8.self)
            }
        }
        return nil
    }

    /// `declaredEncoding(_:)` is the `encoding` of an XML declaration at the start, lowercased.
    static func declaredEncoding(_ data: Data.SubSequence) -> String? {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }
}
