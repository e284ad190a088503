import Testing
@testable import FerryKit

/// `ContentDisposition` follows RFC 6266 and RFC 8187 and only ever yields a safe basename.
struct ContentDispositionTests {
    @Test func prefersTheExtendedUTF8Name() {
        let header = "attachment; filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt"
        let disposition = ContentDisposition(parsing: header)
        #expect(disposition?.type == "attachment")
        #expect(disposition?.fileName == "fallback.txt")
        #expect(disposition?.extendedFileName == "€ rates.txt")
        #expect(disposition?.safeFileName == "€ rates.txt")
    }

    @Test func readsQuotedTokenAndLatin1Names() {
        #expect(ContentDisposition(parsing: "inline; filename=report.pdf")?.safeFileName == "report.pdf")
        #expect(ContentDisposition(parsing: #"attachment; filename="a \"quoted\" name.txt""#)?.safeFileName == #"a "quoted" name.txt"#)
        #expect(ContentDisposition(parsing: "attachment; filename*=iso-8859-1'en'%A3%20rates.txt")?.safeFileName == "£ rates.txt")
        // An undecodable extended value falls back to the plain name.
        #expect(ContentDisposition(parsing: "attachment; filename*=UTF-8''%ZZ; filename=plain.bin")?.safeFileName == "plain.bin")
        #expect(ContentDisposition(parsing: "attachment")?.safeFileName == nil)
        #expect(ContentDisposition(parsing: "") == nil)
    }

    @Test(arguments: [
        ("attachment; filename=\"../../etc/passwd\"", "passwd"),
        ("attachment; filename=\"/etc/shadow\"", "shadow"),
        ("attachment; filename=\"..\\\\..\\\\win.ini\"", "win.ini"),
        ("attachment; filename=\".bashrc\"", "bashrc"),
        ("attachment; filename*=UTF-8''..%2F..%2Fescape.sh", "escape.sh"),
        ("attachment; filename*=UTF-8''evil%00name%0D%0A.txt", "evilname.txt"),
        ("attachment; filename*=UTF-8''%E2%80%AEgpj.exe", "gpj.exe"),
        ("attachment; filename*=UTF-8''%1B%5B31mred.txt", "[31mred.txt"),
    ])
    func hostileNamesBecomeSafeBasenames(_ header: String, _ expected: String) {
        let name = ContentDisposition(parsing: header)?.safeFileName
        #expect(name == expected)
        #expect(name.map { !$0.contains("/") && !$0.contains("\\") && !$0.hasPrefix(".") } == true)
    }

    @Test func longNamesAreShortenedOnACharacterBoundaryKeepingTheExtension() throws {
        let stem = String(repeating: "é", count: 150)  // 300 bytes
        let name = try #require(ContentDisposition(parsing: "attachment; filename*=UTF-8''\(stem.addingPercentEncodingForTest()).tar.gz")?.safeFileName)
        #expect(name.hasSuffix(".tar.gz"))
        #expect(name.utf8.count <= SafeFileName.maximumBytes)
        #expect((name + ".part").utf8.count <= 255)
        #expect(name.dropLast(7).allSatisfy { $0 == "é" })
    }

    @Test func nothingUsableLeftGivesNoName() {
        #expect(ContentDisposition(parsing: "attachment; filename=\"..\"")?.safeFileName == nil)
        #expect(ContentDisposition(parsing: "attachment; filename=\"/\"")?.safeFileName == nil)
    }
}

extension String {
    /// Percent-encodes every byte outside unreserved ASCII (as an RFC 8187 value needs).
    func addingPercentEncodingForTest() -> String {
        utf8.map { byte -> String in
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }
}
