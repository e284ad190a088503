import FerryQueue

extension Aria2Methods {
    /// `pause` and `forcePause`: the task is paused (a running transfer is checkpointed and
    /// stopped, its `.part` kept; a waiting task is notified at once).
    @Sendable static func pause(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        _ = try call.engine.record(id)
        guard try await !call.engine.pause(.ids([id])).isEmpty else {
            throw RPCError.failed("GID#\(GID.string(for: id)) cannot be paused now")
        }
        return .string(GID.string(for: id))
    }

    /// `unpause`: a paused task waits again; any other is refused in aria2's words.
    @Sendable static func unpause(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let engine = call.engine
        let record = try engine.record(id)
        guard record.state == .paused,
              try await !engine.runnerCall({ () async throws(QueueError) in try await engine.runner.resume([id]) }).isEmpty else {
            throw RPCError.failed("GID#\(GID.string(for: id)) cannot be unpaused now")
        }
        return .string(GID.string(for: id))
    }

    @Sendable static func pauseAll(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        _ = try await call.engine.pause(.all)
        return "OK"
    }

    @Sendable static func unpauseAll(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let engine = call.engine
        _ = try engine.journalCall { () throws(QueueError) in try engine.journal.updateAll(in: [.paused], to: .queued) }
        await engine.runner.journalDidChange()
        return "OK"
    }

    /// `remove` and `forceRemove`: the task becomes `cancelled` (aria2's `removed`) and stays
    /// listed as stopped until `removeDownloadResult`; its file or `.part` is kept.
    @Sendable static func remove(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        _ = try call.engine.record(id)
        guard try await !call.engine.cancel(.ids([id])).isEmpty else {
            // aria2's words for a task that has stopped.
            throw RPCError.failed("Active Download not found for GID#\(GID.string(for: id))")
        }
        return .string(GID.string(for: id))
    }

    @Sendable static func removeDownloadResult(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let engine = call.engine
        let record = try engine.record(id)
        guard stoppedStates.contains(record.state) else {
            throw RPCError.failed("Could not remove download result of GID#\(GID.string(for: id))")
        }
        _ = try engine.journalCall { () throws(QueueError) in try engine.journal.remove([id]) }
        engine.options.forget([id])
        await engine.runner.journalDidChange()
        return "OK"
    }

    @Sendable static func purgeDownloadResult(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let engine = call.engine
        let ids = try engine.records(in: stoppedStates).map(\.id)
        _ = try engine.journalCall { () throws(QueueError) in try engine.journal.remove(ids) }
        engine.options.forget(ids)
        await engine.runner.journalDidChange()
        return "OK"
    }

    /// `changePosition(gid, pos, how)`: a place among the waiting tasks (queued and paused),
    /// `POS_SET` from the start, `POS_CUR` from the task's place, `POS_END` from the end;
    /// answers the new place (0 is the first).
    @Sendable static func changePosition(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let amount = try call.integer(1)
        let how = try call.string(2)
        let engine = call.engine
        // The waiting tasks as tellWaiting lists them (held ones included).
        let held = try heldRecords(engine)
        let records = try engine.records(in: waitingStates)
        let waiting = (held.isEmpty ? records : (records + held).sorted(by: inQueueOrder)).map(\.id)
        guard let current = waiting.firstIndex(of: id) else {
            throw RPCError.failed("GID#\(GID.string(for: id)) not found in the waiting queue.")
        }
        let base: Int64
        switch how {
        case "POS_SET": base = 0
        case "POS_CUR": base = Int64(current)
        case "POS_END": base = Int64(waiting.count - 1)
        default: throw RPCError.failed("Illegal argument.")
        }
        let (sum, overflow) = base.addingReportingOverflow(amount)
        let target = overflow ? (amount < 0 ? 0 : waiting.count - 1) : Int(min(max(sum, 0), Int64(waiting.count - 1)))
        if target != current {
            try engine.journalCall { () throws(QueueError) in
                let place = try engine.journal.place(of: waiting[target])
                _ = try engine.journal.move(id, toPlace: place)
            }
            await engine.runner.journalDidChange()
        }
        return .integer(Int64(target))
    }
}
