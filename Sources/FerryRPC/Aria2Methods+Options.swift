import FerryQueue

extension Aria2Methods {
    /// `getOption(gid)`: the options the task was added with (headers masked).
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
        return .object(options)
    }

    /// `changeOption(gid, options)`: `max-download-limit` (`0` for none) is recorded; a
    /// running transfer keeps its cap until it next starts (a pause and unpause applies it
    /// now). Any other option is refused rather than ignored, before anything changes.
    @Sendable static func changeOption(_ call: RPCCall) throws(RPCError) -> JSONValue {
        let id = try call.gid(0)
        let engine = call.engine
        _ = try engine.record(id)
        var limit: Int64??
        for (key, value) in try call.object(1) {
            guard key == "max-download-limit" else {
                throw RPCError.failed("\(key.prefix(64)) cannot be changed yet; only max-download-limit can")
            }
            guard let text = value.stringValue ?? value.integerValue.map({ String($0) }) else {
                throw RPCError.invalidParams("max-download-limit must be a string")
            }
            do {
                limit = .some(try TaskOptions.parseRate(text))
            } catch {
                throw RPCError.failed(error.description)
            }
        }
        if let limit {
            try engine.journalCall { () throws(QueueError) in try engine.journal.setMaxDownloadLimit(limit, for: id) }
        }
        return "OK"
    }

    @Sendable static func getGlobalOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let configuration = await call.engine.scheduler.configuration
        return [
            "dir": .string(call.engine.defaultDirectory),
            "max-concurrent-downloads": DownloadStatus.number(Int64(configuration.maximumConcurrent)),
            "max-per-host": DownloadStatus.number(Int64(configuration.maximumPerHost)),
            "max-overall-download-limit": "0",
            "max-overall-upload-limit": "0",
        ]
    }

    /// `changeGlobalOption(options)`: `max-concurrent-downloads` (aria2's) and `max-per-host`
    /// (Ferry's) change the scheduler's limits at once; other options are refused, nothing
    /// changed, before any is applied.
    @Sendable static func changeGlobalOption(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        let options = try call.object(0)
        var concurrent: Int?
        var perHost: Int?
        for (key, value) in options {
            switch key {
            case "max-concurrent-downloads": concurrent = try FrontEndMethods.limit(value, name: key)
            case "max-per-host": perHost = try FrontEndMethods.limit(value, name: key)
            default: throw RPCError.failed("\(key.prefix(64)) cannot be changed while the daemon runs yet; restart it with the new value")
            }
        }
        await call.engine.scheduler.setLimits(maximumConcurrent: concurrent, maximumPerHost: perHost)
        return "OK"
    }
}
