import FerryKit
import FerryQueue
import Foundation

/// `Aria2Options` is the one option table of aria2's option calls, answered in aria2's types
/// (every value a string; `header` one newline-joined string): `getOption` answers aria2's
/// options of a download, `getGlobalOption` all of aria2's, each with Ferry's own value where
/// it has one and aria2's default where Ferry does not use the option
/// (`Aria2OptionDefaults`), even when a client set it: such an option is accepted, named in
/// `ferry-ignored` and told in the daemon's log. Values are read by `TaskOptionTable`, as batch files and the
/// configuration file read them.
enum Aria2Options {
    /// `ignoredKey` is Ferry's own key in `getOption` and `getGlobalOption`: the options given
    /// that Ferry accepts without using, comma-separated (absent when there are none).
    static let ignoredKey = "ferry-ignored"

    /// `globalKeys` are the global options Ferry applies itself (besides the task options, which
    /// apply to the tasks added afterwards).
    static let globalKeys: Set<String> = ["dir", "save-session", "max-concurrent-downloads", "max-per-host",
                                          "max-overall-download-limit", "max-overall-upload-limit"]

    /// `ferryDefaults` are Ferry's own defaults of task options where they differ from aria2's.
    static let ferryDefaults: [String: String] = [
        "split": "1", "max-connection-per-server": "1",
        "min-split-size": String(SegmentedDownload.defaultMinSplitSize),
        "max-tries": String(RetryPolicy.defaultRetryLimit + 1),
        "continue": "true", "auto-file-renaming": "true",
        "user-agent": FerryVersion.userAgent,
    ]

    // MARK: - Answers

    /// `task(_:engine:)` is `getOption`'s answer for `record`: aria2's options of a download,
    /// the task's own values (which took the global task options when it was added) over the
    /// defaults; headers, the password and a proxy's credentials masked.
    static func task(_ record: TaskRecord, engine: RPCEngine) -> JSONValue {
        var options: [String: String] = [:]
        for option in Aria2OptionDefaults.all where option.scope == .task {
            options[option.name] = ferryDefaults[option.name] ?? expandingHome(option.value)
        }
        let spec = record.spec
        options["dir"] = DownloadStatus.directory(of: record, engine: engine)
        if let name = spec.requestedName { options["out"] = name }
        let connections = String(spec.options.connections ?? 1)
        options["split"] = connections
        options["max-connection-per-server"] = connections
        if let size = spec.options.minSplitSize { options["min-split-size"] = String(size) }
        options["max-download-limit"] = String(spec.options.maxDownloadLimit ?? 0)
        if let retries = spec.options.retries { options["max-tries"] = String(retries + 1) }
        options["allow-overwrite"] = spec.overwrite ? "true" : "false"
        if spec.useContentDisposition { options["content-disposition"] = "true" }
        if let checksum = spec.checksum { options["checksum"] = checksum.description }
        options["pause"] = record.state == .paused ? "true" : "false"
        var others: [String] = []
        for header in spec.headers {
            switch header.name.lowercased() {
            case "user-agent": options["user-agent"] = header.value
            case "referer": options["referer"] = header.masked.dropFirst(header.name.count + 2).description
            default: others.append(header.masked)
            }
        }
        if !others.isEmpty { options["header"] = others.joined(separator: "\n") }
        for (key, value) in spec.connection.summary { options[key] = value }
        // An option given that Ferry does not use keeps aria2's default: the answer says
        // what applies, and `ferry-ignored` names what was not taken.
        let ignored = engine.options.ignored(of: record.id)
        if !ignored.isEmpty { options[ignoredKey] = ignored.keys.sorted().joined(separator: ",") }
        return .object(options.mapValues { .string($0) })
    }

    /// `global(engine:)` is `getGlobalOption`'s answer: every aria2 option, with the engine's
    /// limits, directory and session file and the task options set globally; an option given
    /// that Ferry does not use keeps aria2's default and is named in `ferry-ignored`. The
    /// secret is never answered.
    static func global(engine: RPCEngine) async -> JSONValue {
        var options: [String: String] = [:]
        for option in Aria2OptionDefaults.all {
            options[option.name] = ferryDefaults[option.name] ?? expandingHome(option.value)
        }
        let ignored = engine.options.ignoredGlobal
        for (key, values) in engine.options.taskDefaults { options[key] = values.joined(separator: "\n") }
        let configuration = await engine.runner.configuration
        let overall = await engine.runner.overallLimits
        options["dir"] = engine.newTaskDirectory
        options["max-concurrent-downloads"] = String(configuration.maximumConcurrent)
        options["max-per-host"] = String(configuration.maximumPerHost)
        options["max-overall-download-limit"] = String(overall.download ?? 0)
        options["max-overall-upload-limit"] = String(overall.upload ?? 0)
        if let file = engine.options.saveSession { options["save-session"] = file }
        options["rpc-secret"] = nil
        if !ignored.isEmpty { options[ignoredKey] = ignored.keys.sorted().joined(separator: ",") }
        return .object(options.mapValues { .string($0) })
    }

    /// `expandingHome(_:)` is a default with its leading `~` as the home directory.
    private static func expandingHome(_ value: String) -> String {
        value.hasPrefix("~/") ? NSHomeDirectory() + value.dropFirst() : value
    }
}
