import ArgumentParser
import FerryQueue
import FerryRPC

/// `PauseCommand` is `ferry pause ID...|--all`: pause queued or running tasks.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause queued or running tasks; a running engine stops them (a daemon at once, another within a second).")

    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        try await StateChange.apply(state, ids: ids, all: selection.all, method: "ferry.pause",
                                    to: .paused, from: [.queued, .running], verb: "paused")
    }
}

/// `RetryCommand` is `ferry retry ID...|--all`: queue failed tasks again.
struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue failed tasks again; a running engine starts them (a daemon at once, another within a second).")

    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        try await StateChange.apply(state, ids: ids, all: selection.all, method: "ferry.retry",
                                    to: .queued, from: [.failed], verb: "queued again")
    }
}

/// `StateChange` moves selected tasks to a state, through the daemon when one runs the queue
/// (its method has the same effect, at once) or on the journal, and reports what happened
/// the same way either way.
enum StateChange {
    /// `apply(_:ids:all:method:to:from:verb:)` moves `ids` (or, with `all`, every task in
    /// `from`) to `state`. Ids that do not exist or cannot move are named; unknown ids make
    /// the status 2.
    static func apply(_ options: StateOptions, ids: [TaskID], all: Bool, method: String,
                      to state: TaskState, from: Set<TaskState>, verb: String) async throws {
        let tasks: TaskSet = all ? .all : .ids(ids)
        var report: StateChangeReport?
        let viaDaemon = try await DaemonClient.acting(on: options) { daemon in
            report = try await daemon.answer(method, [tasks.json], read: StateChangeReport.init(json:))
        }
        if !viaDaemon {
            let journal = try QueueAccess.openJournal(options)
            defer { try? journal.close() }
            report = try apply(journal, ids: ids, all: all, to: state, from: from)
        }
        if let report { try print(report, ids: ids, all: all, verb: verb) }
    }

    /// `apply(_:ids:all:to:from:)` moves the tasks on the journal (no daemon runs the queue;
    /// another engine notices within a second).
    static func apply(_ journal: Journal, ids: [TaskID], all: Bool, to state: TaskState, from: Set<TaskState>) throws -> StateChangeReport {
        do {
            let moved = try journal.moveStates(all ? nil : ids, from: from, to: state)
            return try StateChangeReport.make(journal, named: all ? nil : ids, changed: Set(moved.keys))
        } catch {
            throw QueueAccess.fail(error)
        }
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
