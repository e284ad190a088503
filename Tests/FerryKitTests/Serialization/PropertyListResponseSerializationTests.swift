import Foundation
import Testing
@testable import FerryKit

@Suite struct PropertyListResponseSerializationTests {
    typealias Fixtures = SerializationFixtures

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func aPropertyListBodyDecodes(format: PropertyListSerialization.PropertyListFormat) throws {
        let value: ParameterValue = ["name": "ferry", "sizes": [1, 2.5], "on": true, "blob": .data(Data([9]))]
        let body = try value.propertyListData(format: format)
        let decoded = try PropertyListResponseSerializer().serialize(response: Fixtures.response(contentType: "application/x-plist"), data: body)
        #expect(decoded == value)
    }

    @Test func anOpenStepPropertyListDecodes() throws {
        let body = Data(#"{ name = ferry; list = (a, b); }"#.utf8)
        let decoded = try PropertyListResponseSerializer().serialize(response: Fixtures.response(contentType: "application/x-plist"), data: body)
        #expect(decoded == ["name": "ferry", "list": ["a", "b"]])
    }

    @Test func garbageAndEmptyBodiesAreErrors() throws {
        let serializer = PropertyListResponseSerializer()
        for body in [Data(), Data("<plist><dict><key>a</key></plist>".utf8)] {
            let error = #expect(throws: FerryError.self) {
                try serializer.serialize(response: Fixtures.response(contentType: "application/x-plist"), data: body)
            }
            guard case .serialization(.invalidPropertyList)? = error else {
                Issue.record("expected invalidPropertyList, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test func onlyPropertyListsAreAccepted() throws {
        #expect(PropertyListResponseSerializer().acceptableContentTypes == ["application/x-plist"])
        #expect(throws: FerryError.self) {
            try PropertyListResponseSerializer().serialize(response: Fixtures.response(contentType: "text/plain"), data: Data("{}".utf8))
        }
    }
}
