import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `save-cookies` over RPC never replaces a file that is not a cookie jar, and the jar is mode 0600.
struct CookieJarTests {
    @Test func aJarOverAFileThatIsNotOneIsRefusedAndAJarIsMade0600() async throws {
        // Given a dispatcher over a fresh journal, a file that is not a jar, and a jar at 0644.
        let fixture = try EngineFixture()
        defer { fixture.close() }
        let (directory, journal) = (fixture.directory, fixture.journal)
        let dispatcher = fixture.dispatcher()
        func addUri(jar: String) async -> [String: JSONValue]? {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": "aria2.addUri",
                                      "params": [["https://example.com/f"], ["save-cookies": .string(jar)]]]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: .local).body)?.objectValue
        }
        func mode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        }
        let profile = directory + "/.profile"
        try Data("export PATH=/usr/bin\n".utf8).write(to: URL(fileURLWithPath: profile))
        let oldJar = directory + "/old.txt"
        try Data("# Netscape HTTP Cookie File\n".utf8).write(to: URL(fileURLWithPath: oldJar))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: oldJar)

        // When each is named as the jar, and a new file.
        let refused = await addUri(jar: profile)
        let kept = await addUri(jar: oldJar)
        let made = await addUri(jar: directory + "/new.txt")

        // Then the file that is not a jar is refused, named, unchanged, and no task is queued for it;
        // the old jar and the new one are taken, both mode 0600.
        let message = refused?["error"]?.objectValue?["message"]?.stringValue
        #expect(message?.contains("is not a cookie file") == true, "\(String(describing: refused))")
        #expect(try String(contentsOfFile: profile, encoding: .utf8) == "export PATH=/usr/bin\n")
        #expect(kept?["result"] != nil && made?["result"] != nil)
        #expect(try journal.tasks(in: nil, limit: 10).count == 2)
        #expect(try mode(oldJar) == 0o600)
        #expect(try mode(directory + "/new.txt") == 0o600)
    }
}
