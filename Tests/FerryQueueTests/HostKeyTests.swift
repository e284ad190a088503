@testable import FerryQueue
import Testing

/// `Scheduler.hostKey` reads `host:port` from a validated URL without a URL parser.
@Suite struct HostKeyTests {
    private func key(_ text: String) throws -> String {
        Scheduler.hostKey(try TransferURL(validating: text))
    }

    @Test func defaultPortsFollowTheScheme() throws {
        #expect(try key("http://Example.COM/a/b") == "example.com:80")
        #expect(try key("https://example.com") == "example.com:443")
        #expect(try key("HTTPS://example.com?q=1") == "example.com:443")
    }

    @Test func explicitPortAndUserInfo() throws {
        #expect(try key("http://user:p%40ss@127.0.0.1:8080/file") == "127.0.0.1:8080")
        #expect(try key("http://u@host:/x") == "host:80")
        #expect(try key("http://host#frag@other") == "host:80")
    }

    @Test func ipv6Literals() throws {
        #expect(try key("http://[::1]/x") == "[::1]:80")
        #expect(try key("https://[::1]:8443/x") == "[::1]:8443")
    }

    @Test func sameHostSameKeyWhateverTheSpelling() throws {
        #expect(try key("http://HOST:80/a") == (try key("http://host/b")))
    }
}
