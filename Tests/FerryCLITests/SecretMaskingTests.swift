import FerryTestSupport
import Foundation
import Testing

/// One masking rule for every output (catalogue 22, 36): secret query values, URL
/// credentials and secret headers never appear in what `ferry add` and `ferry list` print.
@Suite(.serialized) struct SecretMaskingTests {
    static let secrets = ["tok3n", "s1gnature", "acc3ss", "hunter2", "pa55", "hdr-secret", "bearer-xyz"]

    @Test func addAndListMaskSecretQueryValuesAndHeaders() throws {
        // Given a URL with credentials and secret query values, and secret headers.
        let state = try TemporaryDirectory(prefix: "ferry-state")
        let out = try TemporaryDirectory()
        defer { state.remove(); out.remove() }
        let url = "https://alice:pa55@files.example/report.pdf?token=tok3n&sig=s1gnature&access_token=acc3ss&password=hunter2&page=2"

        // When it is added and listed.
        let added = try runFerry(["add", "-d", out.path, "-H", "X-Api-Token: hdr-secret", "-H", "Authorization: Bearer bearer-xyz", url], stateDirectory: state.url)
        let listed = try runFerry(["list"], stateDirectory: state.url)
        let json = try runFerry(["list", "--json"], stateDirectory: state.url)

        // Then no output holds a secret, and what is not secret is still there.
        for result in [added, listed, json] {
            #expect(result.exitStatus == 0, "\(result.stderr)")
            for secret in Self.secrets {
                #expect(!result.stdout.contains(secret), "\(secret) in \(result.stdout)")
                #expect(!result.stderr.contains(secret), "\(secret) in \(result.stderr)")
            }
            #expect(result.stdout.contains("token=***"))
            #expect(result.stdout.contains("sig=***"))
            #expect(result.stdout.contains("page=2"))
        }
        #expect(json.stdout.contains("X-Api-Token: ***"))
        #expect(json.stdout.contains("Authorization: ***"))
    }
}
