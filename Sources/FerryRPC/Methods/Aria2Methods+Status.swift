import FerryKit
import FerryQueue

extension Aria2Methods {
    @Sendable static func tellStatus(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let record = try call.engine.record(try call.gid(0))
        return DownloadStatus.json(record, engine: call.engine, keys: try call.keys(1))
    }

    @Sendable static func getUris(_ call: RPCCall) throws(RPCError) -> JSONValue {
        DownloadStatus.uris(try call.engine.record(try call.gid(0)), engine: call.engine)
    }

    @Sendable static func getFiles(_ call: RPCCall) throws(RPCError) -> JSONValue {
        DownloadStatus.files(try call.engine.record(try call.gid(0)), engine: call.engine)
    }

    /// aria2's servers of an active download: one file (`index` 1) and its sources, each with
    /// `uri`, `currentUri` and `downloadSpeed`, and Ferry's own `ferry-state`,
    /// `ferry-connections`, `ferry-bytes`, `ferry-bad-pieces` and `ferry-reason` for a download
    /// fetched from several at once. Another task is aria2's error.
    @Sendable static func getServers(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let record = try call.engine.record(id)
        guard record.state == .running, let live = call.engine.live.progress(of: id), record.spec.upload == nil else {
            throw RPCError.failed("No active download for GID#\(GID.string(for: id))")
        }
        var writer = JSONByteWriter()
        writer.beginArray()
        writer.beginObject()
        writer.key("index")
        writer.string("1")
        writer.key("servers")
        writer.beginArray()
        if let sources = live.sources {
            for source in sources {
                DownloadStatus.writeServer(uri: URLMasking.mask(source.url), speed: source.speed, source: source, into: &writer)
            }
        } else if let url = record.spec.urls.first {
            DownloadStatus.writeServer(uri: url.masked, speed: Int64(live.bytesPerSecond), source: nil, into: &writer)
        }
        writer.endArray()
        writer.endObject()
        writer.endArray()
        return .encoded(writer.data)
    }

    /// Only the tasks really transferring are active: the session started them (`live` has
    /// them from their `started` to their `ended`). A task handed to the session ahead of need
    /// is `running` in the journal, but waits there until a place frees.
    @Sendable static func tellActive(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let keys = DownloadStatus.Keys(try call.keys(0))
        let engine = call.engine
        return DownloadStatus.list(try activeRecords(engine), engine: engine, keys: keys)
    }

    /// `activeRecords(_:)` are the running tasks whose transfer the session started, in queue order.
    private static func activeRecords(_ engine: RPCEngine) throws(RPCError) -> [TaskRecord] {
        let live = engine.live.all()
        guard !live.isEmpty else { return [] }
        var active: [TaskRecord] = []
        for record in try engine.runningRecords() where live[record.id] != nil {
            active.append(record)
        }
        return active
    }

    /// Waiting tasks, in queue order: queued and paused, and those handed to the session
    /// ahead of need that it has not started (`heldRecords(_:)`), as `tellStatus` says.
    @Sendable static func tellWaiting(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let held = try heldRecords(call.engine)
        guard !held.isEmpty else { return try page(call, states: waitingStates) }
        return try waitingPage(call, held: held)
    }

    /// `heldRecords(_:)` are the tasks `running` in the journal whose transfer the session
    /// holds back for its limits (not started: not in `live`): at most `SlotPlanner`'s
    /// hand-ahead factor times the concurrency limit.
    static func heldRecords(_ engine: RPCEngine) throws(RPCError) -> [TaskRecord] {
        let live = engine.live.all()
        return try engine.runningRecords().filter { live[$0.id] == nil }
    }

    /// `inQueueOrder(_:_:)` orders tasks as the journal does: higher priority first, then place.
    static func inQueueOrder(_ first: TaskRecord, _ second: TaskRecord) -> Bool {
        first.priority != second.priority ? first.priority > second.priority : first.position < second.position
    }

    /// `waitingPage(_:held:)` answers `tellWaiting` when `held` tasks wait among the queued
    /// and paused ones: the page is cut from both, merged in queue order. A front end's page
    /// from the start, with the held tasks ahead of every other waiting one (the scheduler
    /// hands over the head of the queue), is the held tasks' objects followed by the page of
    /// the others that `StatusPages` keeps; any other page is read and merged each time.
    private static func waitingPage(_ call: RPCCall, held: [TaskRecord]) throws(RPCError) -> JSONValue {
        let ask = try PageAsk(call)
        let engine = call.engine
        guard ask.count > 0 else { return [] }
        let counts = try engine.counts()
        let total = Int64(waitingStates.reduce(0) { $0 + (counts[$1] ?? 0) } + held.count)
        guard let (first, length) = ask.window(total: total) else { return [] }
        guard length <= AnswerBudget.maximumRows else { throw AnswerBudget.tooManyRows(length) }
        let ahead = held.sorted(by: inQueueOrder)
        if !ask.reversed, first == 0, let lastHeld = ahead.last {
            let head = try engine.journalCall { () throws(QueueError) in try engine.journal.tasks(in: waitingStates, limit: 1) }
            if head.first.map({ inQueueOrder(lastHeld, $0) }) ?? true {
                let shown = DownloadStatus.list(Array(ahead.prefix(Int(length))), engine: engine, keys: ask.keys)
                let rest = Int(length) - min(ahead.count, Int(length))
                guard rest > 0 else { return shown }
                let request = StatusPages.Request(states: waitingStates, offset: 0, limit: rest, reversed: false, keys: ask.keys)
                let others = try engine.journalCall { () throws(QueueError) in try engine.statusPages.answer(request, engine: engine) }
                if let joined = JSONValue.joiningArrays(shown, others) { return joined }
            }
        }
        let waiting = try engine.journalCall { () throws(QueueError) in
            try engine.journal.tasks(in: waitingStates, limit: Int(first + length))
        }
        let merged = (waiting + ahead).sorted(by: inQueueOrder)
        let page = merged.dropFirst(Int(first)).prefix(Int(length))
        return DownloadStatus.list(ask.reversed ? page.reversed() : Array(page), engine: engine, keys: ask.keys)
    }

    /// `PageAsk` is what a `tellWaiting` or `tellStopped` call asks for: an offset (negative:
    /// from the end, listed backwards, as aria2 does), how many and the keys. A page of more
    /// than `AnswerBudget.maximumRows` tasks is refused, never cut short silently.
    private struct PageAsk {
        let offset: Int64
        let count: Int64
        let keys: DownloadStatus.Keys

        init(_ call: RPCCall) throws(RPCError) {
            offset = try call.integer(0)
            count = max(try call.integer(1), 0)
            keys = DownloadStatus.Keys(try call.keys(2))
        }

        /// `reversed` is true for a page counted from the end.
        var reversed: Bool { offset < 0 }

        /// `window(total:)` is the part of a list of `total` tasks asked for, `[first, first +
        /// length)`; `nil` when it is empty.
        func window(total: Int64) -> (first: Int64, length: Int64)? {
            if offset >= 0 {
                let first = min(offset, total)
                let length = min(count, total - first)
                return length > 0 ? (first, length) : nil
            }
            let last = total + max(offset, -total - 1)  // index of the first task listed
            guard last >= 0, count > 0 else { return nil }
            let first = max(0, last - count + 1)
            return (first, last - first + 1)
        }
    }

    /// Stopped tasks are listed in queue order (aria2: in the order they stopped).
    @Sendable static func tellStopped(_ call: RPCCall) throws(RPCError) -> JSONValue {
        try page(call, states: stoppedStates)
    }

    /// `page(_:states:)` answers `tellWaiting`/`tellStopped` (`offset`, `num`, keys): a
    /// negative offset counts from the end and lists backwards, as aria2 does.
    private static func page(_ call: RPCCall, states: Set<TaskState>) throws(RPCError) -> JSONValue {
        let ask = try PageAsk(call)
        let engine = call.engine
        guard ask.count > 0 else { return [] }
        let request: StatusPages.Request
        if ask.count > AnswerBudget.maximumRows {
            let counts = try engine.counts()
            let total = Int64(states.reduce(0) { $0 + (counts[$1] ?? 0) })
            if let (_, length) = ask.window(total: total), length > AnswerBudget.maximumRows {
                throw AnswerBudget.tooManyRows(length)
            }
        }
        if !ask.reversed {
            request = StatusPages.Request(states: states, offset: Int(min(ask.offset, Int64(Int32.max))),
                                          limit: Int(min(ask.count, Int64(AnswerBudget.maximumRows))),
                                          reversed: false, keys: ask.keys)
        } else {
            let counts = try engine.counts()
            let total = Int64(states.reduce(0) { $0 + (counts[$1] ?? 0) })
            guard let (first, length) = ask.window(total: total) else { return [] }
            request = StatusPages.Request(states: states, offset: Int(first), limit: Int(length), reversed: true, keys: ask.keys)
        }
        return try engine.journalCall { () throws(QueueError) in try engine.statusPages.answer(request, engine: engine) }
    }

    @Sendable static func getGlobalStat(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let engine = call.engine
        let counts = try engine.counts()
        func count(_ states: Set<TaskState>) -> Int64 {
            Int64(states.reduce(0) { $0 + (counts[$1] ?? 0) })
        }
        func sum(_ states: Set<TaskState>) -> JSONValue {
            DownloadStatus.number(count(states))
        }
        let active = try activeRecords(engine).count
        let running = max(active, counts[.running] ?? 0)
        let speed = engine.live.totalSpeed()
        let offline = (try? engine.journal.networkOffline()) ?? false
        return [
            // Ferry's own: "offline" while the engine waits for the network to return.
            "network": offline ? "offline" : "online",
            "downloadSpeed": DownloadStatus.number(speed.download),
            "uploadSpeed": DownloadStatus.number(speed.upload),
            "numActive": DownloadStatus.number(Int64(active)),
            // Tasks handed to the engine ahead of need wait there: tellStatus says `waiting`.
            "numWaiting": DownloadStatus.number(count(waitingStates) + Int64(running - active)),
            "numStopped": sum(stoppedStates),
            "numStoppedTotal": sum(stoppedStates),
        ]
    }
}
