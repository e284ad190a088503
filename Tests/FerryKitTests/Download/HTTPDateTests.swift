import FerryKit
import Foundation
import Testing

/// `HTTPDateTests` check the three HTTP date forms against RFC 9110's example, and days
/// that do not exist.
struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func theThreeFormsOfRFC9110AreOneMoment() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Self.example)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == Self.example)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == Self.example)
    }

    @Test func leapDaysAndCenturiesCount() {
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
        #expect(HTTPDate.parse("Fri, 01 Mar 2100 00:00:00 GMT") == Date(timeIntervalSince1970: 4_107_542_400))
    }

    @Test func whatIsNotADateIsNil() {
        for text in ["", "soon", "Sat, 29 Feb 2003 00:00:00 GMT", "Mon, 31 Apr 2023 00:00:00 GMT",
                     "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 6 Nov 1994 08:49:37 GMT",
                     "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov +994 08:49:37 GMT"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func aCopiedHasherGoesOnFromWhereItWasCopied() {
        var first = ChecksumHasher(algorithm: .sha256)
        first.update(Array("a".utf8))
        var second = first
        first.update(Array("bc".utf8))
        second.update(Array("b".utf8))
        #expect(first.finalizeHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(second.finalizeHex() == "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603")
    }
}
