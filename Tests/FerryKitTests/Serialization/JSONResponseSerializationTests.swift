import Foundation
import Testing
@testable import FerryKit

@Suite struct JSONResponseSerializationTests {
    typealias Fixtures = SerializationFixtures

    private func decode(_ body: Data, contentType: String? = "application/json", serializer: JSONResponseSerializer = JSONResponseSerializer()) throws -> ParameterValue? {
        try serializer.serialize(response: Fixtures.response(contentType: contentType), data: body)
    }

    private func decode(_ text: String, serializer: JSONResponseSerializer = JSONResponseSerializer()) throws -> ParameterValue? {
        try decode(Data(text.utf8), serializer: serializer)
    }

    @Test func aDictionaryDecodes() throws {
        let value = try decode(#"{"key":"value","n":-12,"x":1.5,"e":1E3,"t":true,"f":false,"z":null,"list":[1,"a",[]],"o":{}}"#)
        #expect(value == [
            "key": "value", "n": -12, "x": 1.5, "e": 1000.0, "t": true, "f": false, "z": nil,
            "list": [1, "a", []], "o": [:],
        ])
    }

    @Test func anArrayDecodes() throws {
        #expect(try decode(" [ 1 , 2 ]\n") == [1, 2])
    }

    @Test func theDefaultContentTypesAreJSONTypes() {
        #expect(JSONResponseSerializer().acceptableContentTypes == ["application/json", "text/json", "text/javascript"])
    }

    @Test func textJavaScriptIsAccepted() throws {
        #expect(try decode(Data("[1]".utf8), contentType: "text/javascript") == [1])
    }

    @Test func htmlIsRejected() throws {
        #expect(throws: FerryError.validation(.unacceptableContentType("text/html", acceptable: ["application/json", "text/javascript", "text/json"], url: "https://example.com/api/items"))) {
            try decode(Data("<html>".utf8), contentType: "text/html")
        }
    }

    @Test func anEmptyBodyIsNilWithoutError() throws {
        #expect(try decode(Data()) == nil)
        #expect(try decode(Data(), contentType: nil) == nil)
    }

    @Test func aSingleSpaceIsNilWithoutError() throws {
        #expect(try decode(Data(" ".utf8)) == nil)
    }

    @Test func otherWhitespaceIsInvalid() throws {
        #expect(throws: FerryError.self) {
            try decode("  ")
        }
    }

    @Test func invalidJSONIsAnErrorWithTheOffset() throws {
        #expect(throws: FerryError.serialization(.invalidJSON("expected ',' or '}' in an object, found character 'x' at offset 7"))) {
            try decode(#"{"a":1 x}"#)
        }
        #expect(throws: FerryError.serialization(.invalidJSON("unexpected end of data at offset 5"))) {
            try decode(#"{"a":"#)
        }
    }

    @Test(arguments: [
        "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[-]", "[1e]", "[NaN]", "[Infinity]", "['a']",
        "[\"a\u{01}\"]", "[\"\\x\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[tru]", "[nul]",
        "// c\n[]", "[] []", "{1:2}", "{\"a\" 1}", "[1e999]", "[\"\\u12G4\"]",
    ])
    func malformedJSONIsRejected(text: String) throws {
        #expect(throws: FerryError.self) {
            try decode(text)
        }
    }

    @Test func fragmentsAreRejectedUnlessAllowed() throws {
        #expect(throws: FerryError.serialization(.invalidJSON("the text does not start with an array or an object, and fragments are not allowed"))) {
            try decode("\"text\"")
        }
        let lenient = JSONResponseSerializer(allowsFragments: true)
        #expect(try decode("\"text\"", serializer: lenient) == "text")
        #expect(try decode("null", serializer: lenient) == .null)
        #expect(try decode(" 42 ", serializer: lenient) == 42)
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        #expect(try decode(#"["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]"#) == ["\"\\/\u{08}\u{0C}\n\r\té😀"])
    }

    @Test func numbersKeepIntegerOrDouble() throws {
        #expect(try decode("[0, -0, 9223372036854775807, 9223372036854775808, 1.0, -2.5e-3]")
            == [0, 0, .integer(Int.max), .double(9_223_372_036_854_775_808), .double(1.0), -0.0025])
    }

    @Test func aRepeatedKeyKeepsTheLastValue() throws {
        #expect(try decode(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: FerryError.serialization(.invalidJSON("nesting deeper than 512 levels at offset 512"))) {
            try decode(deep)
        }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try decode(fine) != nil)
    }

    // MARK: Null removal (AFNetworking's vector)

    @Test func nullsAreRemovedRecursivelyAlsoInsideArrays() throws {
        let body = #"{"key":"value","nullkey":null,"array":[{"subnullkey":null}],"arrayWithNulls":[null]}"#
        let serializer = JSONResponseSerializer(removesKeysWithNullValues: true)
        #expect(try decode(body, serializer: serializer) == ["key": "value", "array": [[:]], "arrayWithNulls": []])
    }

    @Test func nullsAreKeptByDefault() throws {
        #expect(try decode(#"{"a":null,"b":[null]}"#) == ["a": nil, "b": [nil]])
    }

    // MARK: Charsets

    @Test func aUTF16BodyIsConvertedFromItsCharset() throws {
        let text = #"{"name":"Zoë 😀"}"#
        for (charset, encoding) in [("utf-16", String.Encoding.utf16), ("utf-16le", .utf16LittleEndian), ("UTF-16BE", .utf16BigEndian)] {
            let body = try #require(text.data(using: encoding))
            #expect(try decode(body, contentType: "application/json; charset=\(charset)") == ["name": "Zoë 😀"])
        }
    }

    @Test func anISO88591BodyIsConvertedFromItsCharset() throws {
        // "café" in ISO-8859-1: é is the single byte E9, which is not valid UTF-8
        let body = Data([0x7B, 0x22, 0x63, 0x61, 0x66, 0xE9, 0x22, 0x3A, 0x31, 0x7D])
        #expect(try decode(body, contentType: "application/json; charset=\"ISO-8859-1\"") == ["café": 1])
        #expect(throws: FerryError.serialization(.invalidJSON("invalid UTF-8 in the string ending at offset 7"))) {
            try decode(body, contentType: "application/json")
        }
    }

    @Test func aWindows1252BodyIsConvertedFromItsCharset() throws {
        let body = Data([0x5B, 0x22, 0x80, 0x22, 0x5D])
        #expect(try decode(body, contentType: "application/json;charset=windows-1252") == ["€"])
    }

    @Test func unicodeEncodingsAreDetectedWithoutACharset() throws {
        let text = #"["détecté"]"#
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16, .utf8] {
            let body = try #require(text.data(using: encoding))
            #expect(try decode(body) == ["détecté"], "encoding \(encoding)")
        }
        #expect(try decode(Data([0xEF, 0xBB, 0xBF]) + Data("[1]".utf8)) == [1])
    }

    @Test func textThatIsNotValidInItsCharsetIsAnError() throws {
        #expect(throws: FerryError.serialization(.invalidJSON("the body is not valid UTF-16BE text"))) {
            try decode(Data([0x00, 0x5B, 0xD8, 0x00, 0x00, 0x5D]), contentType: "application/json; charset=utf-16be")
        }
    }

    // MARK: Pretty-printing

    @Test func decodedValuesPrettyPrintWithSortedKeysAndTwoSpaces() throws {
        let value = try #require(try decode(#"{"b":[1,{"d":null}],"a":"x/y","c":{}}"#))
        #expect(value.prettyPrintedJSON == """
            {
              "a" : "x/y",
              "b" : [
                1,
                {
                  "d" : null
                }
              ],
              "c" : {}
            }
            """)
    }
}
