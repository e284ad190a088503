import ArgumentParser
import FerryQueue
import FerryRPC

/// `PauseCommand` is `ferry pause ID...|--all`: pause queued or running tasks.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause queued or running tasks; a running engine stops them at once.")

    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        try await StateChange.apply(state, ids: ids, all: selection.all, method: "ferry.pause", verb: "paused")
    }
}

/// `RetryCommand` is `ferry retry ID...|--all`: queue failed tasks again.
struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue failed tasks again; a running daemon or ferry resume starts them at once.")

    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        try await StateChange.apply(state, ids: ids, all: selection.all, method: "ferry.retry", verb: "queued again")
    }
}

/// `StateChange` moves selected tasks to a state through the queue's method (`ferry.pause`,
/// `ferry.retry`: see `QueueClient`) and reports what happened.
enum StateChange {
    /// `apply(_:ids:all:method:verb:)` calls `method` on `ids` (or, with `all`, every task).
    /// Ids that do not exist or cannot move are named; unknown ids make the status 2.
    static func apply(_ options: StateOptions, ids: [TaskID], all: Bool, method: String, verb: String) async throws {
        let tasks: TaskSet = all ? .all : .ids(ids)
        let client = try QueueClient.open(options)
        defer { client.close() }
        let report = try await client.answer(method, [tasks.json], read: StateChangeReport.init(json:))
        try print(report, ids: ids, all: all, verb: verb)
    }

    /// `print(_:ids:all:verb:)` reports a change: each named task left as it was or unknown,
    /// then the count; unknown ids make the status 2.
    static func print(_ report: StateChangeReport, ids: [TaskID], all: Bool, verb: String) throws {
        if !all {
            for id in ids {
                if let current = report.left[id] {
                    Console.error("#\(id) is \(current); left as it is")
                } else if report.missing.contains(id) {
                    Console.error("#\(id): no such task")
                }
            }
        }
        Console.error("\(verb) \(report.changed) task\(report.changed == 1 ? "" : "s")")
        if !report.missing.isEmpty { throw ExitStatus.usage }
    }
}
