import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// Metalink 4 and 3.0 documents read with the XML parser, and hostile ones refused with a
/// reason before anything is fetched.
struct MetalinkTests {
    static func document(_ files: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\">\(files)</metalink>".utf8)
    }

    @Test func aMetalink4FileHasItsSizeHashesPiecesAndSourcesBestFirst() throws {
        let metalink = try Metalink.parse(Self.document("""
            <file name="images/disk.img">
              <size>3000000</size>
              <hash type="sha-256">ABCDEF</hash>
              <hash type="md5">0011</hash>
              <pieces length="1048576" type="sha-1"><hash>aa</hash><hash>bb</hash><hash>cc</hash></pieces>
              <url priority="2" location="us">https://us.example/disk.img</url>
              <url location="xx">http://last.example/disk.img</url>
              <url priority="1" location="de">http://de.example/disk.img</url>
              <url priority="1">ftp://old.example/disk.img</url>
              <metaurl mediatype="torrent">http://t.example/disk.torrent</metaurl>
            </file>
            """))
        #expect(metalink.version == 4)
        let file = try #require(metalink.files.first)
        #expect(file.name == "images/disk.img" && file.size == 3_000_000)
        #expect(file.hashes == [.init(algorithm: "sha-256", hex: "abcdef"), .init(algorithm: "md5", hex: "0011")])
        #expect(file.pieces == Metalink.Pieces(length: 1_048_576, algorithm: "sha-1", hashes: ["aa", "bb", "cc"]))
        #expect(file.sources.map(\.url) == ["http://de.example/disk.img", "https://us.example/disk.img", "http://last.example/disk.img"])
        #expect(file.sources.first?.location == "de")
    }

    @Test func aMetalink3FileIsReadWithItsPreferences() throws {
        let metalink = try Metalink.parse(Data("""
            <?xml version="1.0"?>
            <metalink version="3.0" xmlns="http://www.metalinker.org/">
              <files><file name="a.iso"><size>10</size>
                <verification><hash type="sha256">00ff</hash><pieces length="4" type="sha1"><hash piece="0">01</hash><hash piece="1">02</hash></pieces></verification>
                <resources>
                  <url type="http" preference="50">http://b.example/a.iso</url>
                  <url type="http" preference="100" location="fr">http://a.example/a.iso</url>
                </resources>
              </file></files>
            </metalink>
            """.utf8))
        #expect(metalink.version == 3)
        let file = try #require(metalink.files.first)
        #expect(file.hashes == [.init(algorithm: "sha-256", hex: "00ff")])
        #expect(file.pieces?.hashes == ["01", "02"] && file.pieces?.algorithm == "sha-1")
        #expect(file.sources.map(\.url) == ["http://a.example/a.iso", "http://b.example/a.iso"])
    }

    @Test(arguments: [
        ("/etc/passwd", "is absolute"),
        ("../up.bin", "leaves the download directory"),
        ("a/../../b", "leaves the download directory"),
        ("a//b", "leaves the download directory"),
        ("a/./b", "leaves the download directory"),
        ("c:\\\\windows", "is absolute"),
        ("tab\u{09}.bin", "control character"),
        ("", "has no name"),
    ])
    func aHostileNameIsRefusedWithItsReason(name: String, reason: String) {
        let escaped = name.replacingOccurrences(of: "\u{09}", with: "&#9;")
        #expect {
            _ = try Metalink.parse(Self.document("<file name=\"\(escaped)\"><url>http://h.example/x</url></file>"))
        } throws: { error in
            (error as? FerryError)?.description.contains(reason) == true
        }
    }

    @Test func hugeDeepAndForeignDocumentsAreRefused() {
        func refusal(_ data: Data) -> String {
            do {
                _ = try Metalink.parse(data)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(refusal(Data(count: Metalink.maximumBytes + 1)).contains("at most"))
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        #expect(refusal(Self.document("<file name=\"x\">\(deep)<url>http://h/x</url></file>")).contains("nests elements"))
        #expect(refusal(Data("<rss><channel/></rss>".utf8)).contains("not a Metalink"))
        #expect(refusal(Self.document("<file name=\"x\"><url>ftp://h/x</url></file>")).contains("no http or https source"))
        #expect(refusal(Self.document("")).contains("names no file"))
        #expect(refusal(Data("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"x\">".utf8)) != "accepted")
        let many = String(repeating: "<file name=\"f\"><url>http://h/f</url></file>", count: Metalink.maximumFiles + 1)
        #expect(refusal(Self.document(many)).contains("at most \(Metalink.maximumFiles)"))
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("SECRET-CONTENT".utf8).write(to: directory.file("secret.txt"))
        let data = Data("""
            <?xml version="1.0"?>
            <!DOCTYPE metalink [<!ENTITY leak SYSTEM "file://\(directory.file("secret.txt").path)">]>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="a&leak;b"><url>http://h.example/x</url></file></metalink>
            """.utf8)
        let names = (try? Metalink.parse(data))?.files.map(\.name) ?? []
        #expect(!names.contains { $0.contains("SECRET") })
    }

    @Test func aMetalinkWhoseBytesAreNotUTF8IsRefusedNotATrap() {
        let broken = Data("<?xml version=\"1.0\"?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><file name=\"a\"><".utf8)
            + Data([0xFF, 0xFF]) + Data("ieces/><url>http://m.example/a</url></file></metalink>".utf8)
        #expect(throws: FerryError.serialization(.invalidMetalink("the document is not valid UTF-8"))) {
            try Metalink.parse(broken)
        }
    }

    @Test func aProcessingInstructionWithoutDataIsRefusedNotACrash() {
        let document = Data("<?xml version=\"1.0\"?><?foo ?><metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"/>".utf8)
        #expect(throws: FerryError.serialization(.invalidMetalink("a processing instruction without data (<?foo?>) is not read"))) {
            try Metalink.parse(document)
        }
        #expect(XMLInputCheck.emptyProcessingInstruction(in: Data("<?xml version=\"1.0\"?><?style href=\"a\"?><a/>".utf8)) == nil)
        #expect(XMLInputCheck.emptyProcessingInstruction(in: Data("<a><?x?></a>".utf8)) == "x")
        #expect(XMLInputCheck.emptyProcessingInstruction(in: Data("<?".utf8)) == nil)
        #expect(XMLInputCheck.emptyProcessingInstruction(in: Data("<".utf8)) == nil)
    }
}
