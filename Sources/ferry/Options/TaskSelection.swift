import ArgumentParser
import FerryQueue

/// `TaskSelection` is the `ID...|--all` arguments of `pause`, `resume`, `retry` and `remove`.
struct TaskSelection: ParsableArguments {
    @Argument(help: "Task ids, as `ferry list` shows them.")
    var ids: [String] = []

    @Flag(help: "Every task the command applies to.")
    var all = false

    /// `parsed(requireSome:)` checks the selection: ids or `--all`, not both.
    func parsed(requireSome: Bool = true) throws -> [TaskID] {
        if all && !ids.isEmpty {
            Console.error("give task ids or --all, not both")
            throw ExitStatus.usage
        }
        if requireSome && !all && ids.isEmpty {
            Console.error("give task ids or --all")
            throw ExitStatus.usage
        }
        return try QueueAccess.parseIDs(ids)
    }
}
