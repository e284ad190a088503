import FerryQueue
import FerryRPC
import FerryTestSupport
import FerryTUI
import Foundation
import Synchronization
import Testing
@testable import ferry

/// The terminal UI's changes of rows (adds, moves, new URLs, purges) are made by the daemon
/// it is attached to, as RPC calls, and their outcomes come back to the UI.
@Suite(.serialized) struct DaemonActivityEditTests {
    @Test func addsMovesRetargetsAndPurgesAreMadeByTheDaemon() async throws {
        // Given a daemon and the UI's activity attached to it
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let socket = state.url.appendingPathComponent("control.sock").path
        let activity = DaemonActivity(socketPath: socket)
        func edit(_ change: QueueEdit) async -> QueueEditOutcome {
            await withCheckedContinuation { continuation in
                activity.edit(change) { answer in continuation.resume(returning: answer) }
            }
        }
        func task(_ name: String, paused: Bool = true) throws -> NewTask {
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "http://127.0.0.1:9/\(name)")], destinationDirectory: state.path,
                                   requestedName: name), startsPaused: paused)
        }

        // When it adds two paused downloads
        #expect(await edit(.add(try task("one.bin"))) == .done(count: 1))
        #expect(await edit(.add(try task("two.bin"))) == .done(count: 1))
        // Then the daemon queued them, in order
        let journal = try Journal.open(at: state.file("journal.sqlite").path).journal
        defer { try? journal.close() }
        let added = try journal.tasks(limit: 10)
        try #require(added.count == 2, "\(added.map(\.spec.requestedName))")
        #expect(added.map(\.spec.requestedName) == ["one.bin", "two.bin"] && added.allSatisfy { $0.state == .paused })

        // When it moves the second up
        #expect(await edit(.move(added[1].id, up: true)) == .done(count: 1))
        #expect(try journal.tasks(limit: 10).map(\.spec.requestedName) == ["two.bin", "one.bin"])

        // When it gives the paused first one a new URL, it is queued again from there
        #expect(await edit(.retarget(added[0].id, [try TransferURL(validating: "http://127.0.0.1:9/mirror/one.bin")])) == .done(count: 1))
        let retargeted = try #require(try journal.task(added[0].id))
        #expect(retargeted.spec.urls.map(\.string) == ["http://127.0.0.1:9/mirror/one.bin"] && retargeted.state != .paused)

        // When a task is cancelled and the finished ones are purged, the daemon says how many went
        _ = try daemon.result("aria2.remove", [GID.string(for: added[1].id)])
        #expect(daemon.waitUntil(timeout: .seconds(10)) { (try? journal.task(added[1].id)?.state) == .cancelled })
        #expect(await edit(.purge([.cancelled, .done])) == .done(count: 1))
        #expect(try journal.task(added[1].id) == nil)

        // And a task that is not there is refused with the daemon's words
        guard case .failed(let message) = await edit(.move(TaskID(999), up: true)) else {
            Issue.record("a move of a task that is not there was not refused")
            return
        }
        #expect(message.contains("999") || message.lowercased().contains("not found"), "\(message)")
    }
}
