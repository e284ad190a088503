import ArgumentParser
import FerryQueue

/// `PauseCommand` is `ferry pause ID...|--all`: pause queued or running tasks.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause queued or running tasks; a running engine stops them within a second.")

    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        let journal = try QueueAccess.openJournal(state)
        defer { try? journal.close() }
        try StateChange.apply(journal, ids: ids, all: selection.all, to: .paused, from: [.queued, .running], verb: "paused")
    }
}

/// `RetryCommand` is `ferry retry ID...|--all`: queue failed tasks again.
struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue failed tasks again; a running engine starts them within a second.")

    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        let journal = try QueueAccess.openJournal(state)
        defer { try? journal.close() }
        try StateChange.apply(journal, ids: ids, all: selection.all, to: .queued, from: [.failed], verb: "queued again")
    }
}

/// `StateChange` moves selected tasks to a state and reports what happened.
enum StateChange {
    /// `apply(...)` moves `ids` (or, with `all`, every task in `from`) to `state`. Ids that
    /// do not exist or cannot move are named; unknown ids make the status 2.
    static func apply(_ journal: Journal, ids: [TaskID], all: Bool, to state: TaskState, from: Set<TaskState>, verb: String) throws {
        do {
            if all {
                let count = try journal.updateAll(in: from, to: state)
                Console.error("\(verb) \(count) task\(count == 1 ? "" : "s")")
                return
            }
            let wanted = ids.filter { id in
                // A task must be in one of `from`; `updateStates` would also allow other moves.
                (try? journal.task(id)).flatMap { $0 }.map { from.contains($0.state) } ?? true
            }
            let moved = Set(try journal.updateStates(wanted, to: state))
            let states = try journal.states(of: ids)
            var unknown = false
            for id in ids where !moved.contains(id) {
                if let current = states[id] {
                    Console.error("#\(id) is \(current); left as it is")
                } else {
                    Console.error("#\(id): no such task")
                    unknown = true
                }
            }
            Console.error("\(verb) \(moved.count) task\(moved.count == 1 ? "" : "s")")
            if unknown { throw ExitStatus.usage }
        } catch let error as QueueError {
            throw QueueAccess.fail(error)
        }
    }
}
