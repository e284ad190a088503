import FerryKit
import FerryQueue

/// `FrontEndMethods` are Ferry's own methods a front end attached to the daemon uses (the
/// terminal UI): following the engine's activity, and the actions aria2 has no method for.
/// Task ids travel as GIDs; numbers as JSON numbers (`docs/RPC.md`).
public enum FrontEndMethods {
    /// `table` is every method of this kind.
    public static let table: [RPCMethod] = [
        RPCMethod("ferry.activity", activity),
        RPCMethod("ferry.journalChanged", journalChanged),
        RPCMethod("ferry.retry", retry),
        RPCMethod("ferry.remove", remove),
    ]

    /// `ferry.activity [since]`: the events numbered `since` or later (`ActivityFeed`), the
    /// number to ask with next, whether the client fell behind (`reset`: read the queue
    /// again), and the live progress of every running task. Without `since`, no events: the
    /// client reads the queue itself and follows from `next`.
    @Sendable static func activity(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let since = call.params.isEmpty ? nil : try call.integer(0)
        let page = call.engine.activity.page(since: since)
        var events: [JSONValue] = []
        events.reserveCapacity(page.events.count)
        for event in page.events {
            switch event {
            case .started(let id):
                events.append(["kind": "started", "gid": .string(GID.string(for: id))])
            case .ended(let id, let state, let error):
                var object: [String: JSONValue] = ["kind": "ended", "gid": .string(GID.string(for: id)), "state": .string(state.rawValue)]
                if let error { object["error"] = .string(error) }
                events.append(.object(object))
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
            progress.append(.object(object))
        }
        return ["next": .integer(page.next), "reset": .bool(page.reset), "events": .array(events), "progress": .array(progress)]
    }

    /// `ferry.journalChanged`: the client changed the journal (added or reordered tasks); the
    /// scheduler acts at once instead of at its next poll.
    @Sendable static func journalChanged(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        await call.engine.scheduler.journalDidChange()
        return "OK"
    }

    /// `ferry.retry GID`: a failed task is queued again from its first mirror, a task waiting
    /// for a retry starts at once.
    @Sendable static func retry(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let record = try call.engine.record(id)
        guard await !call.engine.scheduler.retry([id]).isEmpty else {
            throw RPCError.failed("GID \(GID.string(for: id)) cannot be retried now (it is \(DownloadStatus.name(of: record.state)))")
        }
        return .string(GID.string(for: id))
    }

    /// `ferry.remove GID [deleteFile]`: the task leaves the queue (a running transfer stops);
    /// with `deleteFile` true its downloaded or partial file is deleted too.
    @Sendable static func remove(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        var deleteFile = false
        if call.params.count > 1, case .bool(let value) = call.params[1] { deleteFile = value }
        guard await call.engine.scheduler.remove([id], deleteFile: deleteFile) > 0 else {
            throw RPCError.failed("GID \(GID.string(for: id)) is not found")
        }
        return .string(GID.string(for: id))
    }
}
