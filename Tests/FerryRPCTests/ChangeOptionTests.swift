import FerryKit
import FerryQueue
import Foundation
import Testing
@testable import FerryRPC

/// `aria2.changeOption` reads the same option table as `addUri`: a queued task's connections,
/// trust, login and proxy change for its next attempt; a bad value is refused before anything
/// changes (`Aria2OptionTests` has the options applied each on its own). A task's own settings
/// travel from `ferry add`/`get` to a daemon.
struct ChangeOptionTests {
    @Test func aWaitingTasksChecksumChangesAndAnEmptyOneRemovesIt() async throws {
        // Given a paused task in an engine's journal.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/iso")]),
                                            startsPaused: true))
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let dispatcher = RPCDispatcher(engine: RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory,
                                                         maximumConcurrent: 1, onShutdown: {}), secret: nil)
        let gid = JSONValue.string(GID.string(for: id))
        let digest = "sha-256=" + String(repeating: "ab", count: 32)

        // When a checksum is given, then an empty one.
        #expect(try await dispatcher.call("aria2.changeOption", [gid, ["checksum": .string(digest)]]) == "OK")
        let checked = try #require(try journal.task(id))
        #expect(checked.spec.checksum?.description == digest)
        #expect(try await dispatcher.call("aria2.changeOption", [gid, ["checksum": ""]]) == "OK")

        // Then the task is checked against the first, and then against none; a bad one is refused.
        #expect(try #require(try journal.task(id)).spec.checksum == nil)
        await #expect(throws: RPCError.self) { try await dispatcher.call("aria2.changeOption", [gid, ["checksum": "md5=zz"]]) }
    }

    @Test func aQueuedTasksConnectionsAndTrustChangeAndABadValueIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ca = directory + "/ca.pem"
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        let journal = try Journal.open(at: directory + "/journal.sqlite").journal
        defer { try? journal.close() }
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/iso")]),
                                            startsPaused: true))
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        let engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1,
                               onShutdown: {})
        let dispatcher = RPCDispatcher(engine: engine, secret: nil)
        func call(_ method: String, _ params: [JSONValue]) async -> [String: JSONValue] {
            let request: JSONValue = ["jsonrpc": "2.0", "id": "1", "method": .string(method), "params": .array(params)]
            return JSONValue.parse(await dispatcher.answer(request.serialized(), origin: .local).body)?.objectValue ?? [:]
        }
        let gid = JSONValue.string(GID.string(for: id))

        // When split, the authorities and a login are changed on the paused task.
        let changed = await call("aria2.changeOption", [gid, ["split": "4", "max-connection-per-server": "8",
                                                               "ca-certificate": .string(ca), "http-user": "alice",
                                                               "http-passwd": "pa55"]])
        #expect(changed["result"]?.stringValue == "OK", "\(changed)")
        let task = try #require(try journal.task(id))
        #expect(task.spec.options.connections == 4)
        #expect(task.spec.connection.caFile == ca && task.spec.connection.login == Login(user: "alice", password: "pa55"))
        // getOption shows them, the password masked.
        let options = await call("aria2.getOption", [gid])
        let shown = try #require(options["result"]?.objectValue)
        #expect(shown["split"]?.stringValue == "4" && shown["ca-certificate"]?.stringValue == ca)
        #expect(shown["http-passwd"]?.stringValue == "***")

        // Then a bad value is refused and nothing of its call changes, even the good options.
        for refused: JSONValue in [["out": "other.iso", "split": "99"], ["split": "2", "dir": .string(directory), "max-download-limit": "fast"],
                                   ["ca-certificate": .string(directory + "/missing.pem")]] {
            let answer = await call("aria2.changeOption", [gid, refused])
            #expect(answer["error"] != nil, "\(refused)")
        }
        #expect(try journal.task(id)?.spec == task.spec)
    }

    @Test func aTaskRequestCarriesItsOwnSettingsToTheDaemon() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ca = directory + "/ca.pem"
        try "x".write(toFile: ca, atomically: true, encoding: .utf8)
        var settings = ConnectionSettings()
        settings.insecure = true
        settings.caFile = ca
        settings.pinnedKeys = ["sha256//" + Data(count: 32).base64EncodedString()]
        settings.user = "alice"
        settings.password = "pa55"
        settings.authScheme = .digest
        settings.usesNetrc = false
        settings.proxy = "socks5h://bob:pw@127.0.0.1:1080"
        settings.noProxy = "localhost"
        settings.cookieFiles = [ca]
        settings.cookieJar = directory + "/jar.txt"
        settings.compressed = true
        let spec = TaskSpec(urls: [try TransferURL(validating: "https://example.com/big")], connection: settings)
        let back = try TaskRequest.task(TaskRequest.json(NewTask(spec: spec)))
        #expect(back.spec.connection == settings)
    }
}
