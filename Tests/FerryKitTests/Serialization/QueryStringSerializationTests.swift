import Foundation
import Testing
@testable import FerryKit

@Suite struct QueryStringSerializationTests {
    // MARK: Percent-escaping (AFNetworking's and Alamofire's vectors)

    @Test func reservedCharactersAreEscapedExceptQuestionMarkAndSlash() {
        #expect(QueryString.percentEscaped(":#[]@!$&'()*+,;=?/") == "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")
    }

    @Test func unreservedCharactersStayAsTheyAre() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(QueryString.percentEscaped(unreserved) == unreserved)
    }

    @Test func illegalASCIICharactersAreEscaped() {
        #expect(QueryString.percentEscaped(" \"#%<>[]\\^`{}|") == "%20%22%23%25%3C%3E%5B%5D%5C%5E%60%7B%7D%7C")
    }

    @Test func nonASCIIIsEscapedAsUTF8() {
        #expect(QueryString.percentEscaped("français") == "fran%C3%A7ais")
        #expect(QueryString.percentEscaped("日本語") == "%E6%97%A5%E6%9C%AC%E8%AA%9E")
    }

    @Test func nonASCIILettersAndDigitsAreEscaped() {
        // Only ASCII letters and digits count as unescaped.
        #expect(QueryString.percentEscaped("é٣Ω") == "%C3%A9%D9%A3%CE%A9")
    }

    @Test func anAlreadyEscapedPercentIsEscapedAgain() {
        #expect(QueryString.percentEscaped("%25") == "%2525")
    }

    @Test func longStringsWithEmojiAreNotSplit() throws {
        // Given 100 family emoji (a ZWJ sequence of surrogate pairs) with ASCII around, longer
        // than AFNetworking's 50-character batches and starting off the batch boundary
        let family = "👨‍👩‍👧‍👦"
        let text = "!" + String(repeating: family, count: 100) + "abc"
        // When it is escaped
        let escaped = QueryString.percentEscaped(text)
        // Then it matches Foundation escaping the whole string at once, and decodes back
        var allowed = CharacterSet()
        allowed.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?")
        #expect(escaped == text.addingPercentEncoding(withAllowedCharacters: allowed))
        #expect(escaped.hasPrefix("%21%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9"))
        #expect(escaped.hasSuffix("%F0%9F%91%A6abc"))
        #expect(escaped.removingPercentEncoding == text)
    }

    @Test func thousandsOfChineseCharactersRoundTrip() {
        let text = String(repeating: "一二三四五六七八九十", count: 1000)
        let escaped = QueryString.percentEscaped(text)
        #expect(escaped.count == text.utf8.count * 3)
        #expect(escaped.removingPercentEncoding == text)
    }

    // MARK: Pairs (AFQueryStringPairsFromKeyAndValue)

    @Test func keysAreSorted() {
        #expect(QueryString.string(from: ["foo": 1, "bar": 2]) == "bar=2&foo=1")
    }

    @Test func keysAreSortedByCodeUnitNotByLocale() {
        #expect(QueryString.string(from: ["b": 1, "B": 2, "a": 3, "_": 4]) == "B=2&_=4&a=3&b=1")
    }

    @Test func nestedDictionariesUseBrackets() {
        #expect(QueryString.string(from: ["foo": ["bar": ["baz": 1]]]) == "foo%5Bbar%5D%5Bbaz%5D=1")
    }

    @Test func nestedKeysAreSortedAtEveryLevel() {
        let parameters: Parameters = ["z": ["b": 1, "a": ["y": 2, "x": 3]], "m": "v"]
        #expect(QueryString.pairs(from: parameters).map(\.field) == ["m", "z[a][x]", "z[a][y]", "z[b]"])
    }

    @Test func arraysRepeatTheKeyWithEmptyBrackets() {
        #expect(QueryString.string(from: ["a": [1, 2]]) == "a%5B%5D=1&a%5B%5D=2")
        #expect(QueryString.pairs(from: ["a": [1, 2]]).map(\.field) == ["a[]", "a[]"])
    }

    @Test func arraysKeepTheirOrder() {
        #expect(QueryString.string(from: ["a": ["z", "y", "x"]]) == "a%5B%5D=z&a%5B%5D=y&a%5B%5D=x")
    }

    @Test func arraysOfDictionaries() {
        let parameters: Parameters = ["items": [["id": 1, "name": "a"], ["id": 2]]]
        #expect(QueryString.pairs(from: parameters).map(\.urlEncodedStringValue.removingPercentEncoding)
            == ["items[][id]=1", "items[][name]=a", "items[][id]=2"])
    }

    @Test func setsAreSortedAndRepeatTheKey() {
        #expect(QueryString.string(from: ["s": .set(["b", "c", "a"])]) == "s=a&s=b&s=c")
    }

    @Test func setsOfNumbersAreSortedByDescription() {
        #expect(QueryString.string(from: ["s": .set([9, 10, 1])]) == "s=1&s=10&s=9")
    }

    @Test func nullIsTheBareKey() {
        #expect(QueryString.string(from: ["key": nil]) == "key")
        #expect(QueryString.string(from: ["a": nil, "b": "1"]) == "a&b=1")
        #expect(QueryString.string(from: ["list": [nil]]) == "list%5B%5D")
    }

    @Test func booleansAreOneAndZero() {
        #expect(QueryString.string(from: ["t": true, "f": false]) == "f=0&t=1")
    }

    @Test func numbersAreWrittenAsNSNumberDescribesThem() {
        #expect(QueryString.string(from: ["i": 42, "n": -7]) == "i=42&n=-7")
        #expect(QueryString.string(from: ["d": 1.5, "w": 1.0, "s": 0.1, "sum": .double(0.1 + 0.2), "big": 1e20])
            == "big=1e%2B20&d=1.5&s=0.1&sum=0.3&w=1")
    }

    @Test func dataAndDatesAreWrittenByTheirDescription() {
        let parameters: Parameters = [
            "blob": .data(Data("hello".utf8)),
            "when": .date(Date(timeIntervalSinceReferenceDate: 0)),
        ]
        #expect(QueryString.pairs(from: parameters).map(\.urlEncodedStringValue.removingPercentEncoding)
            == ["blob=<68656c6c 6f>", "when=2001-01-01 00:00:00 +0000"])
    }

    @Test func keysAreEscapedToo() {
        #expect(QueryString.string(from: ["foo&bar": "baz&qux", "foobar": "bazqux"]) == "foo%26bar=baz%26qux&foobar=bazqux")
        #expect(QueryString.string(from: ["french": "français"]) == "french=fran%C3%A7ais")
    }

    @Test func emptyParametersAreAnEmptyString() {
        #expect(QueryString.string(from: [:]) == "")
        #expect(QueryString.string(from: ["a": [], "b": [:]]) == "")
    }

    @Test func aPairWithAKeyAndAScalarValue() {
        #expect(QueryString.pairs(key: "k", value: "v") == [QueryStringPair(field: "k", value: "v")])
    }
}
