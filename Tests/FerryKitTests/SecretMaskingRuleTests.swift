import FerryKit
import Testing

/// `URLMasking` is the one rule for secrets in URLs and headers; `HTTPHeaders` follows it.
@Suite struct SecretMaskingRuleTests {
    @Test func secretHeadersAreTheSameEverywhere() {
        for name in ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Token", "X-Auth-Token", "X-API-Key", "X-Session-Id"] {
            #expect(URLMasking.isSecretHeader(name), "\(name)")
            #expect(HTTPHeaders.isSecret(name), "\(name)")
        }
        #expect(!HTTPHeaders.isSecret("Accept"))
        let headers: HTTPHeaders = ["X-Api-Token": "t0k", "Accept": "*/*"]
        let masked = headers.masked
        #expect(masked["X-Api-Token"] == "***")
        #expect(masked["Accept"] == "*/*")
    }

    @Test func theUserNameCanBeHiddenToo() {
        #expect(URLMasking.mask("https://bob:s3cret@host/p?sig=x", hidingUser: true) == "https://***@host/p?sig=***")
        #expect(URLMasking.mask("https://bob:s3cret@host/p?sig=x") == "https://bob:***@host/p?sig=***")
    }
}
