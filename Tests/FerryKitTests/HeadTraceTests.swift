import FerryKit
import Testing

/// `-v`'s heads: split into lines whatever the line ends, secrets masked, as curl -v marks them.
@Suite struct HeadTraceTests {
    @Test func aRequestHeadIsSplitAndItsSecretsMasked() {
        let head = "GET /a.iso?token=abc&x=1 HTTP/1.1\r\nHost: h\r\nAuthorization: Basic dXNlcjpwdw==\r\nX-Api-Key: k3y\r\nCookie: s=1\r\nAccept: */*\r\n\r\n"
        let lines = HeadTrace(direction: .sent, text: head).maskedLines
        #expect(lines == ["> GET /a.iso?token=***&x=1 HTTP/1.1", "> Host: h", "> Authorization: ***", "> X-Api-Key: ***",
                          "> Cookie: ***", "> Accept: */*"])
    }

    @Test func responseLinesAreMaskedOneByOne() {
        #expect(HeadTrace(direction: .received, text: "HTTP/1.1 302 Found\r\n").maskedLines == ["< HTTP/1.1 302 Found"])
        #expect(HeadTrace(direction: .received, text: "Set-Cookie: id=42; Path=/\r\n").maskedLines == ["< Set-Cookie: ***"])
        #expect(HeadTrace(direction: .received, text: "Location: https://u:pw@mirror/x?sig=zzz\r\n").maskedLines
                == ["< Location: https://u:***@mirror/x?sig=***"])
        #expect(HeadTrace(direction: .received, text: "\r\n").maskedLines.isEmpty)
    }
}
