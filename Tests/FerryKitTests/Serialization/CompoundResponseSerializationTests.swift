import Foundation
import Testing
@testable import FerryKit

@Suite struct CompoundResponseSerializationTests {
    typealias Fixtures = SerializationFixtures

    /// JSON, then XML, then image, all shown as text.
    let display = CompoundResponseSerializer<String>([
        JSONResponseSerializer().map { $0?.prettyPrintedJSON ?? "(empty)" },
        XMLParserResponseSerializer().map { "xml:" + $0.root.name },
        ImageResponseSerializer().map(\.description),
    ])

    @Test func theFirstSerializerThatSucceedsWins() throws {
        #expect(try display.serialize(response: Fixtures.response(contentType: "application/json"), data: Data("[1]".utf8)) == "[\n  1\n]")
        #expect(try display.serialize(response: Fixtures.response(contentType: "text/xml"), data: Data("<doc/>".utf8)) == "xml:doc")
        #expect(try display.serialize(response: Fixtures.response(contentType: "image/png"), data: ImageResponseSerializationTests.png) == "PNG 640x480")
    }

    @Test func orderDecidesWhenSeveralWouldSucceed() throws {
        let rawFirst = CompoundResponseSerializer<String>([
            HTTPResponseSerializer().map { "raw \($0.count) bytes" },
            JSONResponseSerializer().map { _ in "json" },
        ])
        let jsonFirst = CompoundResponseSerializer<String>(rawFirst.serializers.reversed())
        let response = try Fixtures.response(contentType: "application/json")
        #expect(try rawFirst.serialize(response: response, data: Data("{}".utf8)) == "raw 2 bytes")
        #expect(try jsonFirst.serialize(response: response, data: Data("{}".utf8)) == "json")
    }

    @Test func aLaterSerializerIsTriedWhenAnEarlierOneFailsToDecode() throws {
        // Given a body labelled JSON that is not JSON, and a raw fallback
        let compound = CompoundResponseSerializer<String>([
            JSONResponseSerializer().map { _ in "json" },
            HTTPResponseSerializer().map { String(decoding: $0, as: UTF8.self) },
        ])
        // Then the fallback gets it
        #expect(try compound.serialize(response: Fixtures.response(contentType: "application/json"), data: Data("oops".utf8)) == "oops")
    }

    @Test func whenAllFailValidationTheFirstStatusFailureIsReported() throws {
        let response = try Fixtures.response(status: 404, contentType: "text/html")
        let error = #expect(throws: FerryError.self) {
            try display.serialize(response: response, data: Data("<h1>Not Found</h1>".utf8))
        }
        #expect(error == .validation(.unacceptableStatus(404, reason: "Not Found", url: "https://example.com/api/items", body: Data("<h1>Not Found</h1>".utf8))))
        #expect(error?.validationMessage == "Request failed: not found (404)")
    }

    @Test func whenAllRejectTheContentTypeTheFirstRejectionIsReported() throws {
        let error = #expect(throws: FerryError.self) {
            try display.serialize(response: Fixtures.response(contentType: "text/html"), data: Data("<p>".utf8))
        }
        #expect(error?.validationMessage == "Request failed: unacceptable content-type: text/html")
    }

    @Test func whenNoneSucceedsForOtherReasonsEveryErrorIsListed() throws {
        let compound = CompoundResponseSerializer<String>([
            JSONResponseSerializer(acceptableContentTypes: nil).map { _ in "json" },
            XMLParserResponseSerializer(acceptableContentTypes: nil).map { _ in "xml" },
            ImageResponseSerializer().map(\.description),
        ])
        let error = #expect(throws: FerryError.self) {
            try compound.serialize(response: Fixtures.response(contentType: "text/plain"), data: Data("plain".utf8))
        }
        guard case .serialization(.noSerializerSucceeded(let reasons))? = error else {
            Issue.record("expected noSerializerSucceeded, got \(String(describing: error))")
            return
        }
        #expect(reasons.count == 3)
        #expect(reasons[0].hasPrefix("invalid JSON: "))
        #expect(reasons[1].hasPrefix("invalid XML: "))
        #expect(reasons[2] == "unacceptable content-type: text/plain")
    }

    @Test func anEmptyCompoundFails() throws {
        #expect(throws: FerryError.serialization(.noSerializerSucceeded([]))) {
            try CompoundResponseSerializer<Data>([]).serialize(response: Fixtures.response(), data: Data())
        }
    }

    @Test func validationPassesWhenAnySerializerAccepts() throws {
        try display.validate(response: Fixtures.response(contentType: "image/gif"), data: Data("x".utf8))
        #expect(throws: FerryError.self) {
            try display.validate(response: Fixtures.response(contentType: "video/mp4"), data: Data("x".utf8))
        }
    }

    @Test func acceptableSetsAreTheUnionOfTheSerializers() {
        #expect(display.acceptableContentTypes?.isSuperset(of: ["application/json", "text/xml", "image/webp"]) == true)
        #expect(display.acceptableStatusCodes == IndexSet(integersIn: 200..<300))
        let anything = CompoundResponseSerializer<Data>([HTTPResponseSerializer().eraseToAnyResponseSerializer()])
        #expect(anything.acceptableContentTypes == nil)
    }
}
