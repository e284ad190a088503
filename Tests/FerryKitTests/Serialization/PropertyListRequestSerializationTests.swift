import Foundation
import Testing
@testable import FerryKit

@Suite struct PropertyListRequestSerializationTests {
    static let sample: ParameterValue = [
        "name": "ferry", "count": 3, "ratio": 0.25, "enabled": true, "disabled": false,
        "tags": ["a", "b"], "nested": ["deep": ["x": 1]],
        "blob": .data(Data([0, 1, 2, 255])), "when": .date(Date(timeIntervalSinceReferenceDate: 86_400)),
    ]

    private func makeSerializer(_ format: PropertyListSerialization.PropertyListFormat) -> PropertyListRequestSerializer {
        PropertyListRequestSerializer(format: format, http: HTTPRequestSerializer(environment: [:]))
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func aBodyRoundTrips(format: PropertyListSerialization.PropertyListFormat) throws {
        // Given a property list request serializer
        let serializer = makeSerializer(format)
        // When parameters are serialized into a POST body
        let request = try serializer.request(method: .post, url: #require(URL(string: "http://example.com/")), parameters: Self.sample)
        // Then the body is a property list of that format holding the same values
        guard case .data(let body)? = request.body else {
            Issue.record("no body")
            return
        }
        var detected = PropertyListSerialization.PropertyListFormat.openStep
        _ = try PropertyListSerialization.propertyList(from: body, options: [], format: &detected)
        #expect(detected == format)
        #expect(request.headers["Content-Type"] == "application/x-plist")
        #expect(try ParameterValue(propertyListData: body) == Self.sample)
    }

    @Test func xmlIsTheDefaultFormat() throws {
        let data = try ParameterValue.dictionary(["a": 1]).propertyListData()
        #expect(String(decoding: data, as: UTF8.self).contains("<key>a</key>"))
        #expect(PropertyListRequestSerializer(http: HTTPRequestSerializer(environment: [:])).format == .xml)
    }

    @Test func getParametersGoIntoTheQuery() throws {
        let request = try makeSerializer(.xml).request(method: .get, url: #require(URL(string: "http://example.com/")), parameters: ["a": 1])
        #expect(request.url.absoluteString == "http://example.com/?a=1")
        #expect(request.body == nil)
    }

    @Test func nullAndSetsHaveNoPropertyListForm() throws {
        let url = try #require(URL(string: "http://example.com/"))
        #expect(throws: FerryError.serialization(.encodingFailed("null has no property list form (at a.b)"))) {
            try makeSerializer(.xml).request(method: .post, url: url, parameters: ["a": ["b": nil]])
        }
        #expect(throws: FerryError.serialization(.encodingFailed("a set has no property list form (at [0])"))) {
            try makeSerializer(.binary).request(method: .post, url: url, parameters: [.set([1])])
        }
    }

    @Test func integersAndBooleansStayApart() throws {
        let value: ParameterValue = [1, 0, true, false, 1.0]
        #expect(try ParameterValue(propertyListData: value.propertyListData(format: .binary)) == value)
        #expect(try ParameterValue(propertyListData: value.propertyListData(format: .xml)) == value)
    }
}
