import FerryKit
import FerryQueue
import Foundation

extension Aria2Methods {
    /// `getOption(gid)`: aria2's options of a download (`Aria2Options.task(_:engine:)`), every
    /// value a string, headers, the password and a proxy's credentials masked.
    @Sendable static func getOption(_ call: RPCCall) throws(RPCError) -> JSONValue {
        Aria2Options.task(try call.engine.record(try call.gid(0)), engine: call.engine)
    }

    /// `changeOption(gid, options)`: every value is read first, and a bad one is the error with
    /// nothing changed (as aria2 parses them all before applying any); then each option is
    /// applied on its own, and one Ferry does not use is accepted and listed in `getOption`'s
    /// `ferry-ignored`, as aria2 ignores the options it cannot change.
    ///
    /// `max-download-limit` applies at once, to a running transfer too, without restarting it
    /// (aria2 too changes it live). `split`, `max-connection-per-server`, `min-split-size`,
    /// `header`, `user-agent`, `referer`, `max-tries`, `allow-overwrite` and the trust, login,
    /// proxy, cookie and time options apply from the task's next attempt: at once for a
    /// waiting or paused task; a running transfer keeps its own until it is paused or retried
    /// (aria2 restarts an active download for them; Ferry does not cut a transfer). `dir` and
    /// `out` move a download that has written nothing yet; once it has bytes on disk they are
    /// accepted and ignored, so its partial file is not lost. `checksum` applies to a task not
    /// transferring (as aria2's, for a waiting or paused download), an empty value removing
    /// it; a transfer under way keeps the one it started with.
    @Sendable static func changeOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let engine = call.engine
        let record = try engine.record(id)
        // aria2's words for a download that has stopped; a failed one may be retried in Ferry.
        guard record.state != .done, record.state != .cancelled else {
            throw RPCError.failed("Cannot change option for GID#\(GID.string(for: id))")
        }
        var given = try call.object(1)
        // An empty checksum asks for none: read apart, as no checksum parses from it.
        let dropsChecksum = given["checksum"] == .string("")
        if dropsChecksum { given.removeValue(forKey: "checksum") }
        let options = try AddOptions(given, origin: call.origin)
        let draft = options.draft
        var ignored = options.ignored
        var applied = Set(given.keys).subtracting(ignored.keys)
        func ignore(_ keys: [String], _ reason: String) {
            for key in keys where given[key] != nil {
                ignored[key] = OptionMemory.Ignored(value: AddOptions.texts(key, given[key] ?? .null).joined(separator: "\n"), reason: reason)
                applied.remove(key)
            }
        }
        ignore(["pause", "priority", "content-disposition"],
               "set when a task is added (pause and unpause, changePosition for its place)")
        if given["checksum"] != nil || dropsChecksum {
            if engine.live.progress(of: id) != nil {
                ignore(["checksum"], "a transfer under way keeps the checksum it started with")
            } else {
                try engine.journalCall { () throws(QueueError) in try engine.journal.setChecksum(draft.checksum, for: id) }
            }
        }
        if given["dir"] != nil || given["out"] != nil {
            try changeDestination(record, draft: draft, engine: engine, ignore: ignore)
        }
        if given["header"] != nil || given["user-agent"] != nil || given["referer"] != nil {
            var kept = record.spec.headers
            if given["header"] != nil { kept = kept.filter { ["user-agent", "referer"].contains($0.name.lowercased()) } }
            let replaced = Set(draft.headers.map { $0.name.lowercased() })
            let headers = kept.filter { !replaced.contains($0.name.lowercased()) } + draft.headers
            try engine.journalCall { () throws(QueueError) in try engine.journal.setHeaders(headers, for: id) }
        }
        if draft.retries != nil || draft.overwrite != nil {
            try engine.journalCall { () throws(QueueError) in
                try engine.journal.setRetryAndOverwrite(retries: draft.retries ?? record.spec.options.retries,
                                                        overwrite: draft.overwrite ?? record.spec.overwrite, for: id)
            }
        }
        if draft.split != nil || draft.connectionsPerServer != nil || draft.minSplitSize != nil {
            let connections = draft.connections ?? record.spec.options.connections
            let size = draft.minSplitSize ?? record.spec.options.minSplitSize
            try engine.journalCall { () throws(QueueError) in
                try engine.journal.setSegmentation(connections: connections, minSplitSize: size, for: id)
            }
        }
        if !draft.given.isEmpty {
            let settings = draft.connection(over: record.spec.connection)
            try engine.journalCall { () throws(QueueError) in try engine.journal.setConnection(settings, for: id) }
        }
        if let limit = draft.limit {
            do {
                try await engine.runner.setMaxDownloadLimit(limit, for: id)
            } catch {
                throw RPCError.failed("journal: \(error.description)")
            }
        }
        engine.options.applied(applied, for: id)
        engine.options.setIgnored(ignored, for: id)
        // A task the engine holds ahead of need starts from its new row.
        await engine.runner.optionsChanged([id])
        return "OK"
    }

    /// `changeDestination(_:draft:engine:ignore:)` applies `dir` and `out` to a download that
    /// has written nothing yet (not transferring, no bytes kept); otherwise they are ignored.
    private static func changeDestination(
        _ record: TaskRecord, draft: TaskDraft, engine: RPCEngine, ignore: ([String], String) -> Void
    ) throws(RPCError) {
        guard record.kind == .download else {
            ignore(["dir", "out"], "an upload saves no file")
            return
        }
        var directory = draft.directory ?? record.spec.destinationDirectory
        if let subdirectory = draft.subdirectory, let base = directory {
            directory = (base.hasSuffix("/") ? base : base + "/") + subdirectory
        }
        let name = draft.name ?? record.spec.requestedName
        var moved = false
        if engine.live.progress(of: record.id) == nil {
            moved = try engine.journalCall { () throws(QueueError) in
                try engine.journal.setDestination(directory: directory, requestedName: name, for: record.id)
            }
        }
        if !moved {
            ignore(["dir", "out"], "the download has begun (a transfer or a partial file): its file stays where it is")
        }
    }

    /// `getGlobalOption()`: every aria2 option (`Aria2Options.global(engine:)`).
    @Sendable static func getGlobalOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        await Aria2Options.global(engine: call.engine)
    }

    /// `changeGlobalOption(options)`: every value is read first, and a bad one is the error
    /// with nothing changed; then each option applies on its own. `max-concurrent-downloads`
    /// (aria2's) and `max-per-host` (Ferry's) change the scheduler's limits at once,
    /// `max-overall-download-limit` and `max-overall-upload-limit` (aria2's rates: `500K`, `2M`,
    /// `0` for none) the speed budgets of the running transfers, kept in the journal; `dir` is
    /// where downloads added from then on go, `save-session` the file `saveSession` writes; a
    /// task option (`split`, `user-agent`, `header`, `max-download-limit`, `all-proxy`...)
    /// applies to the tasks added from then on, as in aria2. Any other option is accepted,
    /// named in `ferry-ignored` (its value stays aria2's default) and told in the daemon's log. These last
    /// while the daemon runs (the limits in the journal, longer).
    @Sendable static func changeGlobalOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let options = try call.object(0)
        var concurrent: Int?
        var perHost: Int?
        var download: Int64??
        var upload: Int64??
        var directory: String?
        var sessionFile: String?
        var scratch = TaskDraft()
        var taskDefaults: [String: [String]] = [:]
        var ignored: [String: OptionMemory.Ignored] = [:]
        for key in options.keys.sorted() {
            let value = options[key] ?? .null
            switch key {
            case "max-concurrent-downloads": concurrent = try FrontEndMethods.limit(value, name: key)
            case "max-per-host": perHost = try FrontEndMethods.limit(value, name: key)
            case "max-overall-download-limit": download = .some(try rate(value, name: key))
            case "max-overall-upload-limit": upload = .some(try rate(value, name: key))
            case "dir":
                guard let path = value.stringValue else { throw RPCError.invalidParams("option dir must be a string") }
                if call.origin == .network { try AddOptions.refuseDotParts(path) }
                directory = try AddOptions.directory(path)
            case "save-session":
                guard let path = value.stringValue else { throw RPCError.invalidParams("option save-session must be a string") }
                sessionFile = try SessionFile.check(path, origin: call.origin)
            case "rpc-secret":
                // Never kept nor answered; the daemon's secret is set where it starts.
                continue
            case "pause":
                ignored[key] = OptionMemory.Ignored(value: AddOptions.texts(key, value).joined(), reason: "give pause with each addUri")
            default:
                if let reason = try AddOptions.read(key, value, into: &scratch) {
                    ignored[key] = OptionMemory.Ignored(value: AddOptions.texts(key, value).joined(separator: "\n"), reason: reason)
                } else {
                    // Sizes are answered in bytes, as aria2 answers them (`1M` is `1048576`).
                    taskDefaults[key] = AddOptions.texts(key, value).map { text in
                        Self.sizeOptions.contains(key) ? TaskOptions.parseByteCount(text).map { String($0) } ?? text : text
                    }
                }
            }
        }
        let engine = call.engine
        await engine.runner.setLimits(maximumConcurrent: concurrent, maximumPerHost: perHost)
        if download != nil || upload != nil {
            do {
                try await engine.runner.setOverallLimits(download: download, upload: upload)
            } catch {
                throw RPCError.failed("journal: \(error.description)")
            }
        }
        if let directory { engine.options.directory = directory }
        if let sessionFile { engine.options.saveSession = sessionFile }
        engine.options.setGlobal(taskDefaults: taskDefaults, ignored: ignored)
        return "OK"
    }

    /// `sizeOptions` are the task options whose value is a size or a rate.
    static let sizeOptions: Set<String> = ["max-download-limit", "min-split-size"]

    /// `rate(_:name:)` reads a rate option (a string as aria2 sends it, or a number): bytes per
    /// second, `nil` for none.
    static func rate(_ value: JSONValue, name: String) throws(RPCError) -> Int64? {
        guard let text = value.stringValue ?? value.integerValue.map({ String($0) }) else {
            throw RPCError.invalidParams("\(name) must be a string")
        }
        do {
            return try TaskOptions.parseRate(text)
        } catch {
            throw RPCError.invalidParams("\(name): \(error.description)")
        }
    }
}
