import Foundation
import Testing
@testable import FerryKit

@Suite struct HTTPResponseSerializationTests {
    typealias Fixtures = SerializationFixtures

    @Test func successfulStatusesAreAcceptedAndTheBodyIsReturned() throws {
        let serializer = HTTPResponseSerializer()
        for status in [200, 201, 204, 299] {
            #expect(try serializer.serialize(response: Fixtures.response(status: status), data: Data("x".utf8)) == Data("x".utf8))
        }
    }

    @Test func otherStatusesFailWithTheStatusURLAndBody() throws {
        // Given a 404 with a body from a URL holding a secret
        let response = try Fixtures.response(status: 404, contentType: "text/html", url: "https://user:secret@example.com/p?token=abc")
        // When it is serialized
        let error = #expect(throws: FerryError.self) {
            try HTTPResponseSerializer().serialize(response: response, data: Data("<h1>gone</h1>".utf8))
        }
        // Then the error carries status, reason, masked URL and body, and reads like AFNetworking's
        #expect(error == .validation(.unacceptableStatus(404, reason: "Not Found", url: "https://user:***@example.com/p?token=***", body: Data("<h1>gone</h1>".utf8))))
        #expect(error?.validationMessage == "Request failed: not found (404)")
    }

    @Test func statusMessagesUseApplesLowercasedStatusTexts() {
        let message = { (status: Int) in
            FerryError.validation(.unacceptableStatus(status, reason: "", url: "", body: nil)).validationMessage
        }
        #expect(message(500) == "Request failed: internal server error (500)")
        #expect(message(401) == "Request failed: unauthorized (401)")
        #expect(message(422) == "Request failed: client error (422)")
        #expect(message(504) == "Request failed: gateway timed out (504)")
        #expect(message(302) == "Request failed: found (302)")
        #expect(message(599) == "Request failed: server error (599)")
        #expect(message(299) == "Request failed: success (299)")
        #expect(FerryError.cancelled.validationMessage == nil)
    }

    @Test func theErrorBodyIsCappedAt64KiB() throws {
        let body = Data(repeating: 0x61, count: 100_000)
        let error = #expect(throws: FerryError.self) {
            try HTTPResponseSerializer().serialize(response: Fixtures.response(status: 500), data: body)
        }
        guard case .validation(.unacceptableStatus(_, _, _, let kept))? = error else {
            Issue.record("expected a status error, got \(String(describing: error))")
            return
        }
        #expect(kept?.count == 65_536)
    }

    @Test func anEmptyErrorBodyIsNil() throws {
        #expect(throws: FerryError.validation(.unacceptableStatus(503, reason: "Service Unavailable", url: "https://example.com/api/items", body: nil))) {
            try HTTPResponseSerializer().serialize(response: Fixtures.response(status: 503), data: Data())
        }
    }

    @Test func acceptableStatusCodesAreConfigurable() throws {
        var serializer = HTTPResponseSerializer()
        serializer.acceptableStatusCodes = IndexSet([200, 404])
        #expect(try serializer.serialize(response: Fixtures.response(status: 404), data: Data()) == Data())
        #expect(throws: FerryError.self) {
            try serializer.serialize(response: Fixtures.response(status: 201), data: Data())
        }
    }

    @Test func anyContentTypeIsAcceptedByDefault() throws {
        #expect(HTTPResponseSerializer().acceptableContentTypes == nil)
        #expect(try HTTPResponseSerializer().serialize(response: Fixtures.response(contentType: "application/x-whatever"), data: Data("a".utf8)).count == 1)
        #expect(try HTTPResponseSerializer().serialize(response: Fixtures.response(), data: Data("a".utf8)).count == 1)
    }

    @Test func anUnacceptableContentTypeFails() throws {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["application/json"])
        let error = #expect(throws: FerryError.self) {
            try serializer.serialize(response: Fixtures.response(contentType: "text/html; charset=utf-8"), data: Data("<p>".utf8))
        }
        #expect(error == .validation(.unacceptableContentType("text/html", acceptable: ["application/json"], url: "https://example.com/api/items")))
        #expect(error?.validationMessage == "Request failed: unacceptable content-type: text/html")
    }

    @Test func contentTypesCompareWithoutCaseOrParameters() throws {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["Application/JSON"])
        #expect(try serializer.serialize(response: Fixtures.response(contentType: "APPLICATION/json ; charset=UTF-8"), data: Data("{}".utf8)).count == 2)
    }

    @Test func aBodyWithoutContentTypeFailsWhenTypesAreRequired() throws {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["text/json", "application/json"])
        let error = #expect(throws: FerryError.self) {
            try serializer.serialize(response: Fixtures.response(), data: Data("{}".utf8))
        }
        #expect(error == .validation(.missingContentType(acceptable: ["application/json", "text/json"], url: "https://example.com/api/items")))
        #expect(error?.validationMessage == "Request failed: unacceptable content-type: (null)")
    }

    @Test func anEmptyBodySkipsTheContentTypeCheck() throws {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["application/json"])
        #expect(try serializer.serialize(response: Fixtures.response(), data: Data()) == Data())
        #expect(try serializer.serialize(response: Fixtures.response(status: 204, contentType: "text/html"), data: Data()) == Data())
    }

    @Test func theStatusIsCheckedBeforeTheContentType() throws {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["application/json"])
        let error = #expect(throws: FerryError.self) {
            try serializer.serialize(response: Fixtures.response(status: 500, contentType: "text/html"), data: Data("oops".utf8))
        }
        #expect(error?.validationMessage == "Request failed: internal server error (500)")
    }
}
