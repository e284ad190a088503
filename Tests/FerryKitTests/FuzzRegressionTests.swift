@testable import FerryKit
import Foundation
import Testing

/// Inputs the fuzz targets in `Fuzz/` found breaking a parser, kept as tests.
@Suite struct FuzzRegressionTests {
    // MARK: Metalink and XML (found by FuzzMetalink)

    @Test func anElementNameWithBytesThatAreNotUTF8IsAnErrorNotATrapInFoundationXML() {
        // FoundationXML stopped the process (`ferry get FILE.meta4` with it: signal 4).
        let input = Data("<?xml version=\"1.0\"?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a.iso\"><size>10</size><".utf8)
            + Data([0xFF, 0xFF]) + Data("ieces></ieces><url>http://m.example/a.iso</url></file></metalink>\n".utf8)
        #expect(throws: FerryError.serialization(.invalidMetalink("the document is not valid UTF-8"))) { try Metalink.parse(input) }
    }

    @Test func aProcessingInstructionWithoutDataIsAnErrorNotANullReadInFoundationXML() {
        // FoundationXML read its null data pointer (signal 11).
        let input = Data("<?xmron.01.09?><meta42</siz".utf8) + Data([0, 0, 0]) + Data(" cd<".utf8)
        #expect(throws: FerryError.serialization(.invalidMetalink("a processing instruction without data (<?xmron.01.09?>) is not read"))) {
            try Metalink.parse(input)
        }
        let serializer = XMLParserResponseSerializer()
        #expect(throws: FerryError.serialization(.invalidXML("a processing instruction without data (<?xmron.01.09?>) is not read"))) {
            try serializer.serialize(response: HTTPResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200,
                                                            headers: ["Content-Type": "application/xml"]), data: input)
        }
    }

    // MARK: SafeFileName (found by FuzzContentDisposition)

    @Test func aNumberedNameWithAnExtensionTooLongToKeepEndsWithinTheLimit() {
        // Given the safe name made from a header with a long run of invalid UTF-8 after a dot
        let header = String(decoding: Array("inline; filenam../../et".utf8) + Array(repeating: 0xFF, count: 72) + Array("c/passwd".utf8), as: UTF8.self)
        let name = SafeFileName.sanitize(header)
        #expect(SafeFileName.split(name).ext.map { $0.utf8.count > 16 } == true)

        // When it is numbered (this recursed until the stack overflowed)
        let numbered = SafeFileName.numbered(name, 105)

        // Then it fits, keeps the counter, and is still a safe name
        #expect(numbered.utf8.count <= SafeFileName.maximumBytes)
        #expect(numbered.hasSuffix(".105"))
        #expect(SafeFileName.sanitize(numbered) == numbered)
    }

    @Test func aNumberedLongNameKeepsItsShortExtensionWithAWideCounter() {
        // Given a name at the limit whose extension is 15 bytes
        let name = String(repeating: "a", count: 234) + "." + String(repeating: "e", count: 15)
        #expect(name.utf8.count == SafeFileName.maximumBytes)

        // When it gets a counter of several digits
        let numbered = SafeFileName.numbered(name, 12345)

        // Then the stem gives way, the counter and the extension stay
        #expect(numbered.utf8.count == SafeFileName.maximumBytes)
        #expect(numbered.hasSuffix(".12345." + String(repeating: "e", count: 15)))
    }

    @Test func sanitizeTrimsABlankLeftAtTheCut() {
        // Given a name over the limit whose cut falls just after a space
        let name = String(repeating: "x", count: SafeFileName.maximumBytes - 1) + " yz"

        // When it is made safe
        let safe = SafeFileName.sanitize(name)

        // Then the space does not end the name, and sanitizing again changes nothing
        #expect(safe == String(repeating: "x", count: SafeFileName.maximumBytes - 1))
        #expect(SafeFileName.sanitize(safe) == safe)
    }

    @Test func sanitizeDropsLeadingDotsAndBlanksInAnyMix() {
        // Given names whose leading dot hides behind a blank or a control character
        // When they are made safe
        // Then no dot leads
        #expect(SafeFileName.sanitize(". .tar.bz2") == "tar.bz2")
        #expect(SafeFileName.sanitize(".\u{1A}\u{1A} \u{01}\0 .hidden\"") == "hidden\"")
        #expect(SafeFileName.sanitize(" . . ") == SafeFileName.fallback)
    }

    @Test func aNameOfOneHugeCharacterIsCutBetweenItsScalars() {
        // Given a name that is one letter under 300 combining accents (601 bytes)
        let name = "a" + String(repeating: "\u{301}", count: 300)
        #expect(name.count == 1)

        // When it is made safe, and a numbered name is made from a shorter one of its kind
        let safe = SafeFileName.sanitize(name)
        let stem = "b" + String(repeating: "\u{301}", count: 122) // 245 bytes, one character
        let numbered = SafeFileName.numbered(stem + ".txt", 1)

        // Then neither is empty nor only an extension: the character is cut between its scalars
        #expect(safe.unicodeScalars.first == "a")
        #expect(safe.utf8.count <= SafeFileName.maximumBytes)
        #expect(numbered.unicodeScalars.first == "b")
        #expect(numbered.hasSuffix(".1.txt"))
        #expect(numbered.utf8.count <= SafeFileName.maximumBytes)
    }

    // MARK: ResponseHeadParser (found by FuzzResponseHead)

    @Test func aBareCarriageReturnInAFieldIsReadAsASpace() {
        // Given a status line, then a field whose value holds bare CRs and ends in spaces
        var parser = ResponseHeadParser()
        receive(&parser, "HTTP/1.1 200 OK\r\n")
        receive(&parser, "A:0b\rg\r                    \n")

        // Then the value holds no CR, and written back it reads the same
        #expect(parser.headers["A"] == "0b g")
        var again = ResponseHeadParser()
        receive(&again, "HTTP/1.1 200 OK\r\n")
        receive(&again, "A: \(parser.headers["A"] ?? "")\r\n")
        #expect(again.headers == parser.headers)
    }

    @Test func aBareCarriageReturnInAStatusLineSeparatesLikeASpace() {
        var parser = ResponseHeadParser()
        receive(&parser, "HTTP/1.1\r404\rNot\rFound\r\n")
        #expect(parser.statusCode == 404)
        #expect(parser.reasonPhrase == "Not Found")
    }

    private func receive(_ parser: inout ResponseHeadParser, _ line: String) {
        Array(line.utf8).withUnsafeBytes { parser.receive($0) }
    }
}
