import ArgumentParser
import FerryQueue
import FerryRPC
import Foundation

/// `RemoveCommand` is `ferry remove ID...|--all|--state STATE [--delete-file]`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove tasks from the queue; a running engine stops them at once.",
        discussion: "Files are kept unless --delete-file is given: then the finished file (if the task was done) and the partial NAME.part file are deleted too. --state done (or failed, or cancelled; repeatable) purges the finished tasks in that state.")

    @OptionGroup var selection: TaskSelection

    @Option(help: ArgumentHelp("Remove every task in this state: done, failed or cancelled (repeatable).", valueName: "state"))
    var state: [String] = []

    @Flag(name: .customLong("delete-file"), help: "Also delete the task's finished or partial file.")
    var deleteFile = false

    @OptionGroup var stateOptions: StateOptions

    /// `finishedStates` are the states `--state` accepts, by name.
    static let finishedStates: [String: TaskState] = ["done": .done, "failed": .failed, "cancelled": .cancelled]

    func run() async throws {
        if !state.isEmpty {
            try await purge()
            return
        }
        let ids = try selection.parsed()
        let tasks: TaskSet = selection.all ? .all : .ids(ids)
        let client = try QueueClient.open(stateOptions)
        defer { client.close() }
        let counts = try await client.answer("ferry.remove", [tasks.json, .bool(deleteFile)], read: RemoveCommand.counts)
        try report(removed: counts.removed, deleted: counts.deleted, ids: ids)
    }

    /// `report(removed:deleted:ids:)` says what was removed (and deleted); ids that did not
    /// exist make the status 2.
    private func report(removed: Int, deleted: Int, ids: [TaskID]) throws {
        Console.error("removed \(removed) task\(removed == 1 ? "" : "s")\(deleteFile ? "; deleted \(deleted) file\(deleted == 1 ? "" : "s")" : "")")
        if !selection.all && state.isEmpty && removed < Set(ids).count {
            Console.error("\(Set(ids).count - removed) of the ids did not exist")
            throw ExitStatus.usage
        }
    }

    /// `counts(_:)` reads the daemon's answer to `ferry.remove` and `ferry.purge`.
    private static func counts(_ answer: JSONValue) -> (removed: Int, deleted: Int)? {
        guard let removed = answer.objectValue?["removed"]?.integerValue,
              let deleted = answer.objectValue?["deleted"]?.integerValue else { return nil }
        return (Int(removed), Int(deleted))
    }

    /// `purge()` removes every task in the `--state` states (finished ones only), deleting
    /// their files with `--delete-file`.
    private func purge() async throws {
        if selection.all || !selection.ids.isEmpty {
            Console.error("give task ids, --all or --state, not more than one")
            throw ExitStatus.usage
        }
        var states: Set<TaskState> = []
        for name in state {
            guard let chosen = Self.finishedStates[name.lowercased()] else {
                Console.error("--state takes a finished state: done, failed or cancelled (not '\(name)')")
                throw ExitStatus.usage
            }
            states.insert(chosen)
        }
        let names = JSONValue.array(states.map(\.rawValue).sorted().map { .string($0) })
        let client = try QueueClient.open(stateOptions)
        defer { client.close() }
        let counts = try await client.answer("ferry.purge", [names, .bool(deleteFile)], read: RemoveCommand.counts)
        try report(removed: counts.removed, deleted: counts.deleted, ids: [])
    }
}
