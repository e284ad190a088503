import Foundation
import Testing
@testable import FerryKit

@Suite struct JSONRequestSerializationTests {
    private func makeSerializer(_ options: JSONWritingOptions = []) -> JSONRequestSerializer {
        JSONRequestSerializer(writingOptions: options, http: HTTPRequestSerializer(environment: ["LANG": "en_US.UTF-8"]))
    }

    private func url() throws -> URL {
        try #require(URL(string: "http://example.com/items"))
    }

    private func bodyText(_ request: Request) -> String? {
        guard case .data(let data)? = request.body else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    @Test func postParametersBecomeAJSONBody() throws {
        let request = try makeSerializer().request(method: .post, url: url(), parameters: ["key": "value", "n": 1, "ok": true, "none": nil])
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(bodyText(request) == #"{"key":"value","n":1,"none":null,"ok":true}"#)
        #expect(request.headers["User-Agent"] == FerryVersion.userAgent)
    }

    @Test func aTopLevelArrayIsAccepted() throws {
        let request = try makeSerializer().request(method: .put, url: url(), parameters: [["key": "value"]])
        #expect(bodyText(request) == #"[{"key":"value"}]"#)
    }

    @Test func getParametersStillGoIntoTheQuery() throws {
        let request = try makeSerializer().request(method: .get, url: url(), parameters: ["key": "value"])
        #expect(request.url.absoluteString == "http://example.com/items?key=value")
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func noParametersMeansNoBodyAndNoContentType() throws {
        let request = try makeSerializer().request(method: .post, url: url())
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func anExistingContentTypeIsKept() throws {
        let request = try Request(url: url(), method: .post, headers: ["Content-Type": "application/vnd.api+json"])
        let serialized = try makeSerializer().request(bySerializing: request, parameters: ["a": 1])
        #expect(serialized.headers["Content-Type"] == "application/vnd.api+json")
    }

    @Test func numbersStringsAndEscapes() throws {
        let parameters: ParameterValue = [
            "d": 1.5, "w": 2.0, "small": 1e-7, "neg": -3,
            "text": "a\"b\\c/d\n\u{01}é😀",
        ]
        let request = try makeSerializer().request(method: .post, url: url(), parameters: parameters)
        #expect(bodyText(request) == #"{"d":1.5,"neg":-3,"small":1e-07,"text":"a\"b\\c\/d\n\u0001é😀","w":2}"#)
    }

    @Test func theOutputParsesBackWithFoundation() throws {
        let parameters: ParameterValue = ["a": [1, 2.5, "x", nil, true], "b": ["c": [:], "d": []]]
        let data = try parameters.jsonData()
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?.keys.sorted() == ["a", "b"])
        #expect((object?["a"] as? [Any])?.count == 5)
    }

    @Test func prettyPrintingIndentsWithTwoSpaces() throws {
        let request = try makeSerializer([.prettyPrinted, .withoutEscapingSlashes]).request(
            method: .post, url: url(), parameters: ["b": [1, "/"], "a": [:], "c": []])
        #expect(bodyText(request) == """
            {
              "a" : {},
              "b" : [
                1,
                "/"
              ],
              "c" : []
            }
            """)
    }

    static let invalidInputs: [(parameters: ParameterValue, reason: String)] = [
        (["a": .double(.nan)], "nan is not a valid JSON number (at a)"),
        (["a": ["b": [1, .double(.infinity)]]], "inf is not a valid JSON number (at a.b[1])"),
        (["s": .set([1])], "a set has no JSON form (at s)"),
        (["d": .data(Data([1]))], "data has no JSON form (at d)"),
        ([.date(Date(timeIntervalSince1970: 0))], "a date has no JSON form (at [0])"),
        ("fragment", "the top level of a JSON body must be an array or a dictionary"),
    ]

    @Test(arguments: 0..<invalidInputs.count)
    func invalidInputIsAnErrorNotACrash(index: Int) throws {
        let (parameters, reason) = Self.invalidInputs[index]
        #expect(throws: FerryError.serialization(.encodingFailed(reason))) {
            try makeSerializer().request(method: .post, url: url(), parameters: parameters)
        }
    }

    @Test func fragmentsCanBeAllowed() throws {
        #expect(try ParameterValue.string("x").jsonString(options: .fragmentsAllowed) == #""x""#)
        #expect(try ParameterValue.null.jsonString(options: .fragmentsAllowed) == "null")
    }

    @Test func writingOptionsAreSettable() throws {
        let serializer = makeSerializer()
        serializer.writingOptions = .prettyPrinted
        #expect(serializer.writingOptions == .prettyPrinted)
        let request = try serializer.request(method: .post, url: url(), parameters: ["a": 1])
        #expect(bodyText(request) == "{\n  \"a\" : 1\n}")
    }

    @Test func headersAreSharedWithTheHTTPSerializer() throws {
        let serializer = makeSerializer()
        serializer.http.setAuthorizationHeader(username: "user", password: "password")
        let request = try serializer.request(method: .post, url: url(), parameters: ["a": 1])
        #expect(request.headers["Authorization"] == "Basic dXNlcjpwYXNzd29yZA==")
    }
}
