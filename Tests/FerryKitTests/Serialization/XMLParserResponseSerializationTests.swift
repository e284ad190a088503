import Foundation
import Testing
@testable import FerryKit

@Suite struct XMLParserResponseSerializationTests {
    typealias Fixtures = SerializationFixtures

    private func parse(_ text: String, contentType: String = "application/xml") throws -> XMLDocumentTree {
        try XMLParserResponseSerializer().serialize(response: Fixtures.response(contentType: contentType), data: Data(text.utf8))
    }

    @Test func aDocumentParsesIntoATree() throws {
        // Given a small feed with attributes, entities, CDATA and nesting
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed version="2" lang="en"><title>Tom &amp; Jerry</title><entry id="1"><![CDATA[<raw>]]> text</entry><entry id="2"/></feed>
            """
        // When it is serialized
        let document = try parse(xml)
        // Then the tree holds names, sorted attributes, merged text and children in order
        #expect(document.root.name == "feed")
        #expect(document.root.attributes == [.init(name: "lang", value: "en"), .init(name: "version", value: "2")])
        #expect(document.root.elements(named: "title").first?.text == "Tom & Jerry")
        #expect(document.root.elements(named: "entry").map { $0[attribute: "id"] } == ["1", "2"])
        #expect(document.root.elements(named: "entry").first?.children == [.text("<raw> text")])
        #expect(document.description == """
            <feed lang="en" version="2">
              <title>Tom &amp; Jerry</title>
              <entry id="1">&lt;raw&gt; text</entry>
              <entry id="2"/>
            </feed>
            """)
    }

    @Test func textXMLIsAcceptedAndJSONIsNot() throws {
        #expect(try parse("<a/>", contentType: "text/xml").root.name == "a")
        #expect(throws: FerryError.validation(.unacceptableContentType("application/json", acceptable: ["application/xml", "text/xml"], url: "https://example.com/api/items"))) {
            try parse("<a/>", contentType: "application/json")
        }
    }

    @Test func aMismatchedTagIsAnErrorWithItsPosition() throws {
        #expect(throws: FerryError.serialization(.invalidXML("opening and ending tag mismatch at line 1, column 11"))) {
            try parse("<a><b></a>")
        }
    }

    @Test func bytesThatAreNotUTF8InADocumentReadAsUTF8AreAnErrorNotATrap() throws {
        // A name with bytes that are not UTF-8: FoundationXML stops the process on them.
        let broken = Data("<?xml version=\"1.0\"?><a><".utf8) + Data([0xFF, 0xFF]) + Data("b/></a>".utf8)
        let serializer = XMLParserResponseSerializer()
        #expect(throws: FerryError.serialization(.invalidXML("the document is not valid UTF-8"))) {
            try serializer.serialize(response: Fixtures.response(contentType: "text/xml"), data: broken)
        }
        // A document that declares another encoding is read in it.
        let latin = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf".utf8) + Data([0xE9]) + Data("</a>".utf8)
        let tree = try serializer.serialize(response: Fixtures.response(contentType: "text/xml"), data: latin)
        #expect(tree.root.text == "café")
    }

    @Test func anEmptyDocumentIsAnError() throws {
        let serializer = XMLParserResponseSerializer()
        #expect(throws: FerryError.serialization(.invalidXML("the document is empty"))) {
            try serializer.serialize(response: Fixtures.response(contentType: "text/xml"), data: Data())
        }
    }

    @Test func garbageIsAnError() throws {
        #expect(throws: FerryError.self) {
            try parse("not xml at all")
        }
        #expect(throws: FerryError.self) {
            try parse("<a></a><b></b>")
        }
    }

    @Test func externalEntitiesAreNotResolved() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE a [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
            <a>&secret;</a>
            """
        let document = try? parse(xml)
        #expect(document?.root.text.isEmpty ?? true)
    }

    @Test func theDocumentsEncodingDeclarationIsHonoured() throws {
        let body = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf".utf8) + Data([0xE9]) + Data("</a>".utf8)
        let document = try XMLParserResponseSerializer().serialize(response: Fixtures.response(contentType: "text/xml"), data: body)
        #expect(document.root.text == "café")
    }
}
