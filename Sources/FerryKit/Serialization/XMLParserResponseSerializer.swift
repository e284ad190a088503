import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `XMLParserResponseSerializer` validates a response and parses its XML body into an
/// ``XMLDocumentTree``. It is AFNetworking's `AFXMLParserResponseSerializer`, which hands
/// back an unparsed `NSXMLParser`; here the parse is done, so a malformed document is an
/// error of the serializer.
///
/// The parser is Foundation's `XMLParser` (FoundationXML on Linux, which needs libxml2 at
/// run time). External entities are not resolved. The document's own encoding declaration
/// decides how its bytes are read. Errors are ``SerializationReason/invalidXML(_:)`` with
/// the line and column.
public struct XMLParserResponseSerializer: ResponseSerializer {
    /// The media types accepted by default: `application/xml` and `text/xml`.
    public static let defaultAcceptableContentTypes: Set<String> = ["application/xml", "text/xml"]

    /// The status codes that are accepted; 200-299 by default.
    public var acceptableStatusCodes: IndexSet
    /// The media types that are accepted; ``defaultAcceptableContentTypes`` by default.
    public var acceptableContentTypes: Set<String>?

    public init(
        acceptableStatusCodes: IndexSet = HTTPResponseSerializer.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<String>? = Self.defaultAcceptableContentTypes
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// The parsed document.
    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> XMLDocumentTree {
        try validate(response: response, data: data)
        if let problem = XMLInputCheck.problem(in: data) { throw .serialization(.invalidXML(problem)) }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let succeeded = parser.parse()
        // Linux Foundation's XMLParser returns true after some errors (extra content after the
        // root element), so any reported error fails the parse.
        if let (code, line, column) = builder.firstError {
            throw .serialization(.invalidXML("\(Self.message(forErrorCode: code)) at line \(line), column \(column)"))
        }
        guard succeeded else {
            throw .serialization(.invalidXML("the parser stopped at line \(parser.lineNumber), column \(parser.columnNumber)"))
        }
        guard let root = builder.root else {
            // Linux Foundation's XMLParser reports success for an empty document.
            throw .serialization(.invalidXML("the document is empty"))
        }
        return XMLDocumentTree(root: root)
    }

    /// A readable text for the most common libxml2 / `XMLParser.ErrorCode` numbers (Linux
    /// Foundation's errors carry no message of their own).
    static func message(forErrorCode code: Int) -> String {
        switch code {
        case 4: "the document is empty"
        case 5: "extra content at the end of the document"
        case 9: "invalid character"
        case 26: "undeclared entity"
        case 38: "'<' in an attribute value"
        case 39, 40: "unfinished attribute value"
        case 41: "attribute without a value"
        case 42: "attribute redefined"
        case 64: "malformed XML declaration"
        case 68: "a name was expected"
        case 73: "'>' was expected"
        case 76: "opening and ending tag mismatch"
        case 77: "unfinished tag"
        case 111: "unsupported encoding"
        default: "parse error \(code)"
        }
    }
}
