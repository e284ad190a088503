import ArgumentParser
import FerryQueue
import FerryRPC

/// `BandwidthOptions` are the speed budgets of every command that runs transfers (`get`,
/// `resume`, `daemon`, the terminal UI): shared by all running transfers. On `get` and `resume`
/// they apply to that run only (curl's model); the daemon and the terminal UI keep them in the
/// journal for the next runs, as `ferry limit` does.
struct BandwidthOptions: ParsableArguments {
    @Option(name: .customLong("overall-limit"), help: ArgumentHelp("Download speed of all transfers together, shared fairly among them, for example 500K or 2M (1024-based); 0 or off for none. On get and resume for this run only; `ferry limit` keeps one for the next runs and changes it live.", valueName: "RATE"))
    var overallLimit: String?

    @Option(name: .customLong("overall-upload-limit"), help: ArgumentHelp("Upload speed of all transfers together, as --overall-limit.", valueName: "RATE"))
    var overallUploadLimit: String?

    func validate() throws {
        _ = try Self.parse(overallLimit, option: "--overall-limit")
        _ = try Self.parse(overallUploadLimit, option: "--overall-upload-limit")
    }

    /// Whether either budget was given.
    var isGiven: Bool { overallLimit != nil || overallUploadLimit != nil }

    /// The budgets given: `nil` when not given, `.some(nil)` for none.
    var download: Int64?? { Self.given(overallLimit) }
    var upload: Int64?? { Self.given(overallUploadLimit) }

    /// `given(_:)` is a rate already validated: `nil` when not given, `.some(nil)` for none.
    private static func given(_ text: String?) -> Int64?? {
        guard let text, let parsed = try? parse(text, option: "") else { return nil }
        return parsed
    }

    /// `parse(_:option:)` reads a rate (`off` and `0` are none); a bad one is a usage error
    /// naming the value.
    static func parse(_ text: String?, option: String) throws -> Int64?? {
        guard let text else { return nil }
        if text.lowercased() == "off" || text.lowercased() == "none" { return .some(nil) }
        do {
            return .some(try TaskOptions.parseRate(text))
        } catch {
            throw ValidationError("\(option): \(error.description)")
        }
    }

    /// `record(on:)` keeps the budgets given in the journal (the engine made next runs under them).
    func record(on journal: Journal) throws {
        guard isGiven else { return }
        do {
            try journal.setOverallLimits(download: download, upload: upload)
        } catch {
            throw QueueAccess.fail(error)
        }
    }

    /// `apply(to:)` makes the budgets given this run's, never recorded (`get`, `resume`).
    func apply(to configuration: inout SchedulerConfiguration) {
        configuration.runDownloadLimit = download
        configuration.runUploadLimit = upload
    }

    /// `keptLimitNote(journal:)` is the first line of a `get` or `resume` a kept download
    /// budget slows (one `ferry limit` or an engine recorded), naming how to lift it; `nil`
    /// when this run gives its own budget or none is kept.
    func keptLimitNote(journal: Journal) -> String? {
        guard download == nil, let kept = (try? journal.overallLimits())?.download else { return nil }
        return Self.keptLimitNote(kept)
    }

    static func keptLimitNote(_ kept: Int64) -> String {
        "note: the kept overall limit \(LimitCommand.describe(kept)) applies (set by 'ferry limit'); 'ferry limit off' lifts it"
    }

    /// `changeGlobalOption`'s options for the budgets given (to a daemon that runs already).
    var rpcOptions: [String: JSONValue] {
        var options: [String: JSONValue] = [:]
        if let download { options["max-overall-download-limit"] = .string(String(download ?? 0)) }
        if let upload { options["max-overall-upload-limit"] = .string(String(upload ?? 0)) }
        return options
    }
}
