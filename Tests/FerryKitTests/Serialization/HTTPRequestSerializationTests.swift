import Foundation
import Testing
@testable import FerryKit

@Suite struct HTTPRequestSerializationTests {
    let environment = ["LANG": "en_US.UTF-8"]

    private func url(_ text: String) throws -> URL {
        try #require(URL(string: text))
    }

    private func bodyText(_ request: Request) -> String? {
        guard case .data(let data)? = request.body else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Where parameters go

    @Test func getParametersGoIntoTheQuery() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        let request = try serializer.request(method: .get, url: url("http://example.com/a"), parameters: ["key": "value", "n": 1])
        #expect(request.url.absoluteString == "http://example.com/a?key=value&n=1")
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func headAndDeleteParametersGoIntoTheQuery() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        for method in [HTTPMethod.head, .delete, HTTPMethod(rawValue: "delete")] {
            let request = try serializer.request(method: method, url: url("http://example.com/"), parameters: ["a": "b"])
            #expect(request.url.absoluteString == "http://example.com/?a=b")
            #expect(request.body == nil)
        }
    }

    @Test func anExistingQueryIsExtendedWithAnAmpersand() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        let request = try serializer.request(method: .get, url: url("http://example.com/?x=1"), parameters: ["y": "2"])
        #expect(request.url.absoluteString == "http://example.com/?x=1&y=2")
    }

    @Test func theFragmentStaysAtTheEnd() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        let request = try serializer.request(method: .get, url: url("http://example.com/p#top"), parameters: ["y": "2"])
        #expect(request.url.absoluteString == "http://example.com/p?y=2#top")
    }

    @Test func emptyQueryParametersLeaveTheURLAlone() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        let request = try serializer.request(method: .get, url: url("http://example.com/p"), parameters: [:])
        #expect(request.url.absoluteString == "http://example.com/p")
    }

    @Test func postParametersGoIntoAFormBody() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        let request = try serializer.request(method: .post, url: url("http://example.com/"), parameters: ["key": "value", "a": ["b": "c d"]])
        #expect(request.url.absoluteString == "http://example.com/")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(bodyText(request) == "a%5Bb%5D=c%20d&key=value")
    }

    @Test func anEmptyFormIsAValidBody() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        for parameters: ParameterValue? in [nil, [:]] {
            let request = try serializer.request(method: .put, url: url("http://example.com/"), parameters: parameters)
            #expect(bodyText(request) == "")
            #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        }
    }

    @Test func anExistingContentTypeIsKept() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        var request = try Request(url: url("http://example.com/"), method: .post)
        request.headers["content-type"] = "text/plain"
        let serialized = try serializer.request(bySerializing: request, parameters: ["a": "1"])
        #expect(serialized.headers.values(for: "Content-Type") == ["text/plain"])
        #expect(bodyText(serialized) == "a=1")
    }

    @Test func theMethodsEncodingParametersInTheURIAreConfigurable() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        serializer.httpMethodsEncodingParametersInURI = [.get, .post]
        let post = try serializer.request(method: .post, url: url("http://example.com/"), parameters: ["a": "1"])
        let delete = try serializer.request(method: .delete, url: url("http://example.com/"), parameters: ["a": "1"])
        #expect(post.url.absoluteString == "http://example.com/?a=1")
        #expect(post.body == nil)
        #expect(delete.url.absoluteString == "http://example.com/")
        #expect(bodyText(delete) == "a=1")
    }

    @Test func nonDictionaryParametersNeedACustomSerialization() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        #expect(throws: FerryError.serialization(.encodingFailed("query string parameters must be a dictionary"))) {
            try serializer.request(method: .get, url: url("http://example.com/"), parameters: [1, 2])
        }
    }

    @Test func aCustomSerializationReplacesTheDefault() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        serializer.setQueryStringSerialization { request, parameters throws(FerryError) in
            guard case .array(let items) = parameters else { throw .serialization(.encodingFailed("want a list")) }
            return "\(request.method)=" + items.map(\.foundationDescription).joined(separator: ",")
        }
        let get = try serializer.request(method: .get, url: url("http://example.com/"), parameters: [1, 2])
        #expect(get.url.absoluteString == "http://example.com/?GET=1,2")
        #expect(throws: FerryError.serialization(.encodingFailed("want a list"))) {
            try serializer.request(method: .get, url: url("http://example.com/"), parameters: ["a": 1])
        }
        serializer.setQueryStringSerialization(nil)
        let restored = try serializer.request(method: .get, url: url("http://example.com/"), parameters: ["a": 1])
        #expect(restored.url.absoluteString == "http://example.com/?a=1")
    }

    // MARK: Headers

    @Test func defaultHeadersAreAcceptLanguageAndAnASCIIUserAgent() {
        let serializer = HTTPRequestSerializer(environment: ["LANG": "de_DE.UTF-8"])
        #expect(serializer.httpRequestHeaders.fields.map(\.name) == ["Accept-Language", "User-Agent"])
        #expect(serializer.value(forHTTPHeaderField: "accept-language") == "de-DE;q=1")
        let userAgent = serializer.value(forHTTPHeaderField: "User-Agent")
        #expect(userAgent == FerryVersion.userAgent)
        #expect(userAgent?.allSatisfy(\.isASCII) == true)
    }

    @Test func defaultHeadersDoNotReplaceTheRequestsOwn() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        serializer.setValue("a", forHTTPHeaderField: "X-Default")
        serializer.setValue("b", forHTTPHeaderField: "X-Both")
        let request = try Request(url: url("http://example.com/"), headers: ["x-both": "mine"])
        let serialized = try serializer.request(bySerializing: request, parameters: nil)
        #expect(serialized.headers["X-Default"] == "a")
        #expect(serialized.headers.values(for: "X-Both") == ["mine"])
        #expect(serialized.headers["User-Agent"] == FerryVersion.userAgent)
    }

    @Test func settingNilRemovesAHeader() {
        let serializer = HTTPRequestSerializer(environment: environment)
        serializer.setValue("1", forHTTPHeaderField: "X-A")
        serializer.setValue(nil, forHTTPHeaderField: "x-a")
        #expect(serializer.value(forHTTPHeaderField: "X-A") == nil)
    }

    @Test func basicAuthorizationFromUserAndPassword() {
        let serializer = HTTPRequestSerializer(environment: environment)
        serializer.setAuthorizationHeader(username: "user", password: "password")
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Basic dXNlcjpwYXNzd29yZA==")
        serializer.clearAuthorizationHeader()
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func basicAuthorizationEncodesUTF8() {
        let serializer = HTTPRequestSerializer(environment: environment)
        serializer.setAuthorizationHeader(username: "zoë", password: "p:w")
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Basic em/DqzpwOnc=")
    }

    @Test func headersAreSafeToUseFromManyThreads() async {
        // Given one serializer shared by many tasks
        let serializer = HTTPRequestSerializer(environment: environment)
        // When they write and read different headers at the same time
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    serializer.setValue("\(index)", forHTTPHeaderField: "X-\(index)")
                    _ = serializer.httpRequestHeaders
                    _ = serializer.value(forHTTPHeaderField: "X-\(index / 2)")
                }
            }
        }
        // Then every write is there
        #expect(serializer.httpRequestHeaders.count == 64 + 2)
        #expect((0..<64).allSatisfy { serializer.value(forHTTPHeaderField: "X-\($0)") == "\($0)" })
    }

    // MARK: Request properties

    @Test func theConnectTimeoutIsAppliedOnlyWhenSet() throws {
        let serializer = HTTPRequestSerializer(environment: environment)
        #expect(try serializer.request(method: .get, url: url("http://example.com/")).connectTimeout == nil)
        serializer.connectTimeout = 7.5
        #expect(try serializer.request(method: .get, url: url("http://example.com/")).connectTimeout == 7.5)
    }
}
