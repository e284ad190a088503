import ArgumentParser
import FerryQueue
import FerryRPC

/// `MoveCommand` is `ferry move ID --to N|--up|--down|--top|--bottom`: change a task's place
/// in the queue order (what starts next), as J and K do in the terminal UI.
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a task in the queue order; a running engine starts tasks in the new order.",
        discussion: """
        The queue order is the one `ferry list` shows (priority first, then the order tasks \
        were added or moved in). --to 1 makes the task the first; tasks an engine already \
        handed to its transfer loop but had not started are chosen again in the new order.
        """
    )

    @Argument(help: "The task to move.")
    var id: Int64

    @Option(help: ArgumentHelp("Put the task at place N of the queue order (1 is the first).", valueName: "N"))
    var to: Int?

    @Flag(help: "Move the task one place earlier.")
    var up = false

    @Flag(help: "Move the task one place later.")
    var down = false

    @Flag(help: "Make the task the first (same as --to 1).")
    var top = false

    @Flag(help: "Make the task the last.")
    var bottom = false

    @OptionGroup var state: StateOptions

    func validate() throws {
        let given = [to != nil, up, down, top, bottom].filter { $0 }.count
        guard given == 1 else { throw ValidationError("give exactly one of --to N, --up, --down, --top, --bottom") }
        if let to, to < 1 { throw ValidationError("--to takes a place of 1 or more") }
    }

    /// `run()` asks the queue to move the task (`ferry.move`); a daemon also takes back at once
    /// the tasks it handed ahead.
    func run() async throws {
        let task = TaskID(id)
        guard id > 0 else { throw noSuchTask() }
        let how = to != nil ? "to" : up ? "up" : down ? "down" : top ? "top" : "bottom"
        let params: [JSONValue] = [.string(GID.string(for: task)), .string(how)] + (to.map { [.integer(Int64($0))] } ?? [])
        let client = try QueueClient.open(state)
        defer { client.close() }
        switch try await client.attempt("ferry.move", params) {
        case .failure(let error) where error == RPCError.notFound(task):
            throw noSuchTask()
        case .failure(let error):
            throw DaemonClient.fail(error)
        case .success(let result):
            guard let members = result.objectValue, let place = members["place"]?.integerValue else {
                Console.error("the answer to ferry.move is not understood")
                throw ExitStatus.transferFailed
            }
            let moved = members["moved"] == .bool(true)
            Console.error(moved ? "#\(id) is now at place \(place)" : "#\(id) stays at place \(place)")
        }
    }

    private func noSuchTask() -> ExitStatus {
        Console.error("#\(id): no such task")
        return ExitStatus.usage
    }
}
