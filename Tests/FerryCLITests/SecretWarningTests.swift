import Foundation
import Testing
@testable import ferry

/// The daemon warns of an RPC secret that is easy to guess, or kept in a file other users read.
struct SecretWarningTests {
    @Test func aShortSecretIsSaidEasyToGuessAndALongOneIsNot() {
        let short = RPCOptions.secretWarnings("s3cret", file: nil)
        #expect(short.count == 1)
        #expect(short.first?.contains("6 characters, easy to guess") == true)
        #expect(RPCOptions.secretWarnings(String(repeating: "k", count: 16), file: nil).isEmpty)
    }

    @Test func aSecretFileOthersCanReadIsNamedAndA0600OneIsNot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-secret-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let secret = String(repeating: "k", count: 32)
        try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: path))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let readable = RPCOptions.secretWarnings(secret, file: path)
        #expect(readable == ["warning: the RPC secret's file \(path) can be read by other users (mode 644); chmod 600 \(path)"])

        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(RPCOptions.secretWarnings(secret, file: path).count == 1)

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(RPCOptions.secretWarnings(secret, file: path).isEmpty)
    }
}
