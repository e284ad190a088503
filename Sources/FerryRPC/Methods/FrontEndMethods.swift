import FerryKit
import FerryQueue

/// `FrontEndMethods` are Ferry's own methods a front end attached to the daemon uses (the
/// terminal UI) to follow the engine's activity; its actions aria2 has no method for are
/// `FerryMethods`, the command line's. Task ids travel as GIDs; numbers as JSON numbers
/// (`docs/RPC.md`).
public enum FrontEndMethods {
    /// `table` is every method of this kind.
    public static let table: [RPCMethod] = [
        RPCMethod("ferry.activity", activity),
        RPCMethod("ferry.journalChanged", journalChanged),
        RPCMethod("ferry.setLimits", setLimits),
    ]

    /// `ferry.activity [since, waitMillis]`: the events numbered `since` or later (`ActivityFeed`),
    /// once there is one or `waitMillis` (at most 1,000; none by default) have passed, the
    /// number to ask with next, whether the client fell behind (`reset`: read the queue
    /// again), the live progress of every running task (with its live connections, when
    /// split), and the limits in force
    /// (`maxConcurrent`, `maxPerHost`). Without `since`, no events: the client reads the
    /// queue itself and follows from `next`.
    @Sendable static func activity(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let since = call.params.isEmpty ? nil : try call.integer(0)
        let wait = call.params.count > 1 ? try call.integer(1) : 0
        guard wait >= 0 else { throw RPCError.invalidParams("waitMillis must be 0 or more") }
        let page = await call.engine.activity.page(since: since, waitingUpTo: .milliseconds(min(wait, 1_000)))
        var events: [JSONValue] = []
        events.reserveCapacity(page.events.count)
        for event in page.events {
            switch event {
            case .started(let id):
                events.append(["kind": "started", "gid": .string(GID.string(for: id))])
            case .ended(let id, let state, let error, let path, let received):
                var object: [String: JSONValue] = ["kind": "ended", "gid": .string(GID.string(for: id)), "state": .string(state.rawValue)]
                if let error { object["error"] = .string(error) }
                if let path { object["path"] = .string(path) }
                if let received { object["received"] = .integer(received) }
                events.append(.object(object))
            case .willRetry(let id, let delay):
                events.append(["kind": "retry", "gid": .string(GID.string(for: id)), "delay": .number(delay)])
            case .firstBytes(let id, let received, let expected):
                var object: [String: JSONValue] = ["kind": "bytes", "gid": .string(GID.string(for: id)), "received": .integer(received)]
                if let expected { object["expected"] = .integer(expected) }
                events.append(.object(object))
            case .note(let id, let text):
                events.append(["kind": "note", "gid": .string(GID.string(for: id)), "text": .string(text)])
            case .journalChanged:
                events.append(["kind": "journalChanged"])
            }
        }
        var progress: [JSONValue] = []
        for (id, snapshot) in call.engine.live.all() {
            var object: [String: JSONValue] = [
                "gid": .string(GID.string(for: id)), "received": .integer(snapshot.receivedBytes),
                "sent": .integer(snapshot.sentBytes), "speed": .integer(Int64(snapshot.bytesPerSecond)),
            ]
            if let expected = snapshot.expectedReceivedBytes { object["expected"] = .integer(expected) }
            if let expected = snapshot.expectedSentBytes { object["expectedSent"] = .integer(expected) }
            if let connections = snapshot.connections { object["connections"] = .integer(Int64(connections)) }
            if let sources = snapshot.sources {
                // A download from several sources at once: each as getServers lists it.
                var writer = JSONByteWriter()
                DownloadStatus.writeSources(sources, into: &writer)
                object["sources"] = .encoded(writer.data)
            }
            progress.append(.object(object))
        }
        let configuration = await call.engine.runner.configuration
        let overall = await call.engine.runner.overallLimits
        let limits: JSONValue = ["maxConcurrent": .integer(Int64(configuration.maximumConcurrent)),
                                 "maxPerHost": .integer(Int64(configuration.maximumPerHost)),
                                 "overallLimit": .integer(overall.download ?? 0),
                                 "offline": .bool(await call.engine.runner.isWaitingForNetwork)]
        return ["next": .integer(page.next), "reset": .bool(page.reset), "events": .array(events), "progress": .array(progress),
                "limits": limits]
    }

    /// `ferry.setLimits {maxConcurrent, maxPerHost, overallLimit}`: changes the engine's
    /// limits at once (any may be left out; `overallLimit` is the download speed all
    /// transfers share, bytes per second, `0` for none); answers the limits in force.
    @Sendable static func setLimits(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let options = try call.object(0)
        let concurrent = try limit(options["maxConcurrent"], name: "maxConcurrent")
        let perHost = try limit(options["maxPerHost"], name: "maxPerHost")
        var overall: Int64??
        if let value = options["overallLimit"] {
            guard let number = value.integerValue, number >= 0 else {
                throw RPCError.invalidParams("overallLimit must be a number of bytes per second, 0 for none")
            }
            overall = .some(number > 0 ? number : nil)
        }
        await call.engine.runner.setLimits(maximumConcurrent: concurrent, maximumPerHost: perHost)
        if let overall, overall != (await call.engine.runner.overallLimits.download) {
            do {
                try await call.engine.runner.setOverallLimits(download: .some(overall), upload: nil)
            } catch {
                throw RPCError.failed("journal: \(error.description)")
            }
        }
        let configuration = await call.engine.runner.configuration
        let download = await call.engine.runner.overallLimits.download
        return ["maxConcurrent": .integer(Int64(configuration.maximumConcurrent)), "maxPerHost": .integer(Int64(configuration.maximumPerHost)),
                "overallLimit": .integer(download ?? 0)]
    }

    /// `limit(_:name:)` is a limit given as a number or a string of digits, from 1 to 999;
    /// `nil` when absent.
    static func limit(_ value: JSONValue?, name: String) throws(RPCError) -> Int? {
        guard let value else { return nil }
        guard let number = value.integerValue, (1...999).contains(number) else {
            throw RPCError.invalidParams("\(name) must be a number from 1 to 999")
        }
        return Int(number)
    }

    /// `ferry.journalChanged`: the client changed the journal (added or reordered tasks); the
    /// scheduler acts at once instead of at its next poll.
    @Sendable static func journalChanged(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        await call.engine.runner.journalDidChange()
        return "OK"
    }
}
