import ArgumentParser
import FerryQueue
import FerryRPC

/// `LimitCommand` is `ferry limit [RATE|off] [ID...]`: the engine's speed budget, or tasks'
/// own caps, changed live (through the running engine's `control.sock`, at once; on the
/// journal when none runs, kept for the next).
struct LimitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Change the download speed limit of all transfers together, or of tasks, while they run.",
        discussion: """
        `ferry limit 2M` shares 2 MiB/s among all running downloads; `ferry limit off` lifts \
        it; `ferry limit 300K 4 7` caps tasks 4 and 7 at 300 KiB/s each (under the shared \
        limit). Rates are bytes per second with an optional K, M or G suffix (1024-based; 1.5M too). The \
        shared limit is kept for the next runs. `ferry limit` alone shows the shared limits.
        """
    )

    @Argument(help: ArgumentHelp("The rate (for example 500K or 2M), or off.", valueName: "RATE"))
    var rate: String?

    @Argument(help: ArgumentHelp("Tasks to cap; none for the shared limit.", valueName: "ID"))
    var ids: [String] = []

    @Flag(help: "Change the shared upload limit instead of the download one.")
    var upload = false

    @OptionGroup var state: StateOptions

    func validate() throws {
        if rate != nil { _ = try BandwidthOptions.parse(rate, option: "RATE") }
        if upload, !ids.isEmpty { throw ValidationError("--upload applies to the shared limit only; give no task ids") }
    }

    func run() async throws {
        guard let rate else { return try await show() }
        let value = (try BandwidthOptions.parse(rate, option: "RATE")) ?? nil
        let tasks = try QueueAccess.parseIDs(ids)
        if tasks.isEmpty {
            try await setShared(value)
        } else {
            try await setCaps(value, tasks)
        }
    }

    private func setShared(_ value: Int64?) async throws {
        let key = upload ? "max-overall-upload-limit" : "max-overall-download-limit"
        let client = try QueueClient.open(state)
        defer { client.close() }
        _ = try await client.call("aria2.changeGlobalOption", [.object([key: .string(String(value ?? 0))])])
        Console.error("\(upload ? "upload" : "download") limit of all transfers together: \(Self.describe(value))")
    }

    private func setCaps(_ value: Int64?, _ tasks: [TaskID]) async throws {
        var missing: [TaskID] = []
        let client = try QueueClient.open(state)
        defer { client.close() }
        for task in tasks {
            let options: JSONValue = .object(["max-download-limit": .string(String(value ?? 0))])
            switch try await client.attempt("aria2.changeOption", [.string(GID.string(for: task)), options]) {
            case .success: break
            case .failure(let error) where error == RPCError.notFound(task): missing.append(task)
            case .failure(let error): throw DaemonClient.fail(error)
            }
        }
        for task in tasks where !missing.contains(task) {
            Console.error("#\(task.rawValue): download limit \(Self.describe(value))")
        }
        for task in missing { Console.error("#\(task.rawValue): no such task") }
        if !missing.isEmpty { throw ExitStatus.usage }
    }

    private func show() async throws {
        let client = try QueueClient.open(state)
        defer { client.close() }
        let answer = try await client.call("aria2.getGlobalOption")
        func read(_ key: String) -> Int64? {
            guard let text = answer.objectValue?[key]?.stringValue, let value = Int64(text), value > 0 else { return nil }
            return value
        }
        print("download: \(Self.describe(read("max-overall-download-limit")))")
        print("upload: \(Self.describe(read("max-overall-upload-limit")))")
    }

    /// `describe(_:)` is a rate as shown to the user: `off`, or bytes per second with a unit.
    static func describe(_ value: Int64?) -> String {
        guard let value else { return "off" }
        if value % (1024 * 1024) == 0 { return "\(value / (1024 * 1024)) MiB/s" }
        if value % 1024 == 0 { return "\(value / 1024) KiB/s" }
        return "\(value) B/s"
    }
}
