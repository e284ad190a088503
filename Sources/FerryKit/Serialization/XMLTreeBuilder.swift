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
