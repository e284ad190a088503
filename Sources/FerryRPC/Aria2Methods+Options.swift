import FerryQueue

extension Aria2Methods {
    /// `getOption(gid)`: the options the task was added with (headers, the password and a
    /// proxy's credentials masked).
    @Sendable static func getOption(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let record = try call.engine.record(try call.gid(0))
        var options: [String: JSONValue] = [
            "dir": .string(DownloadStatus.directory(of: record, engine: call.engine)),
            "max-download-limit": DownloadStatus.number(record.spec.options.maxDownloadLimit ?? 0),
            "pause": record.state == .paused ? "true" : "false",
            // One number for both of aria2's: the connections the download may use.
            "split": DownloadStatus.number(Int64(record.spec.options.connections ?? 1)),
            "max-connection-per-server": DownloadStatus.number(Int64(record.spec.options.connections ?? 1)),
        ]
        if let size = record.spec.options.minSplitSize { options["min-split-size"] = DownloadStatus.number(size) }
        if let name = record.spec.requestedName { options["out"] = .string(name) }
        if let checksum = record.spec.checksum { options["checksum"] = .string(checksum.description) }
        if !record.spec.headers.isEmpty {
            options["header"] = .array(record.spec.headers.map { .string($0.masked) })
        }
        for (key, value) in record.spec.connection.summary { options[key] = .string(value) }
        return .object(options)
    }

    /// `changeOption(gid, options)`: the options `TaskOptionTable` marks changeable.
    /// `max-download-limit` (`0` for none) is recorded and a running transfer takes it at once,
    /// without restarting; `split`, `max-connection-per-server`, `min-split-size` and the
    /// trust, login, proxy and cookie options are recorded for the task's next attempt. Any
    /// other option, or a bad value, is refused before anything changes.
    @Sendable static func changeOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let engine = call.engine
        let record = try engine.record(id)
        let options = try call.object(1)
        var draft = TaskDraft()
        for key in options.keys.sorted() {
            guard let option = TaskOptionTable.option(named: key), option.changeable else {
                let changeable = TaskOptionTable.options.filter(\.changeable).map(\.name).joined(separator: ", ")
                throw RPCError.failed("\(key.prefix(64)) cannot be changed on a task; these can: \(changeable)")
            }
            try AddOptions.read(key, options[key] ?? .null, into: &draft)
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
                try await engine.scheduler.setMaxDownloadLimit(limit, for: id)
            } catch {
                throw RPCError.failed("journal: \(error.description)")
            }
        }
        await engine.scheduler.journalDidChange()
        return "OK"
    }

    @Sendable static func getGlobalOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let configuration = await call.engine.scheduler.configuration
        let overall = await call.engine.scheduler.overallLimits
        return [
            "dir": .string(call.engine.defaultDirectory),
            "max-concurrent-downloads": DownloadStatus.number(Int64(configuration.maximumConcurrent)),
            "max-per-host": DownloadStatus.number(Int64(configuration.maximumPerHost)),
            "max-overall-download-limit": DownloadStatus.number(overall.download ?? 0),
            "max-overall-upload-limit": DownloadStatus.number(overall.upload ?? 0),
        ]
    }

    /// `changeGlobalOption(options)`: `max-concurrent-downloads` (aria2's) and `max-per-host`
    /// (Ferry's) change the scheduler's limits at once, `max-overall-download-limit` and
    /// `max-overall-upload-limit` (aria2's rates: `500K`, `2M`, `0` for none) the speed budgets
    /// of the running transfers, kept in the journal; other options are refused, nothing
    /// changed, before any is applied.
    @Sendable static func changeGlobalOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let options = try call.object(0)
        var concurrent: Int?
        var perHost: Int?
        var download: Int64??
        var upload: Int64??
        for (key, value) in options {
            switch key {
            case "max-concurrent-downloads": concurrent = try FrontEndMethods.limit(value, name: key)
            case "max-per-host": perHost = try FrontEndMethods.limit(value, name: key)
            case "max-overall-download-limit": download = .some(try rate(value, name: key))
            case "max-overall-upload-limit": upload = .some(try rate(value, name: key))
            default: throw RPCError.failed("\(key.prefix(64)) cannot be changed while the daemon runs yet; restart it with the new value")
            }
        }
        await call.engine.scheduler.setLimits(maximumConcurrent: concurrent, maximumPerHost: perHost)
        if download != nil || upload != nil {
            do {
                try await call.engine.scheduler.setOverallLimits(download: download, upload: upload)
            } catch {
                throw RPCError.failed("journal: \(error.description)")
            }
        }
        return "OK"
    }

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
