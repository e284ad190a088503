import FerryQueue
import FerryRPC

/// `TaskSink` is where `ferry add` puts new tasks: the daemon running the queue
/// (`ferry.add`, started at once), else the journal (an engine running the queue picks them
/// up within a second).
enum TaskSink {
    case daemon(DaemonClient, StateOptions)
    case journal(Journal)

    /// `requestLimit` bounds the body of one `ferry.add`, well under the daemon's 1 MiB.
    static let requestLimit = RPCDispatcher.maximumRequestSize / 2

    /// `open(_:)` is the daemon of the state directory when one runs, else its journal.
    static func open(_ options: StateOptions) throws -> TaskSink {
        if let daemon = DaemonClient(try QueueAccess.directory(options)) { return .daemon(daemon, options) }
        return .journal(try QueueAccess.openJournal(options))
    }

    /// `insert(_:)` adds `tasks` in order and returns their ids. A daemon that is gone (it
    /// took none of them) leaves the journal to take them.
    mutating func insert(_ tasks: [NewTask]) async throws -> [TaskID] {
        switch self {
        case .daemon(let daemon, let options):
            do {
                return try await TaskSink.add(tasks, through: daemon)
            } catch is DaemonClient.Absent {
                self = .journal(try QueueAccess.openJournal(options))
                return try await insert(tasks)
            }
        case .journal(let journal):
            do {
                return try journal.insert(tasks)
            } catch {
                throw QueueAccess.fail(error)
            }
        }
    }

    /// `close()` closes the journal, if one was opened.
    func close() {
        if case .journal(let journal) = self { try? journal.close() }
    }

    /// `add(_:through:)` sends the tasks in requests of at most `requestLimit` bytes.
    private static func add(_ tasks: [NewTask], through daemon: DaemonClient) async throws -> [TaskID] {
        var ids: [TaskID] = []
        var batch: [JSONValue] = []
        var size = 0
        func send() async throws {
            guard !batch.isEmpty else { return }
            let gids: [TaskID] = try await daemon.answer("ferry.add", [.array(batch)]) { answer in
                let ids = answer.arrayValue?.compactMap { $0.stringValue.flatMap(GID.taskID) }
                return ids?.count == batch.count ? ids : nil
            }
            ids += gids
            batch.removeAll(keepingCapacity: true)
            size = 0
        }
        for task in tasks {
            let request = TaskRequest.json(task)
            let bytes = request.serialized().count
            if size + bytes > requestLimit { try await send() }
            batch.append(request)
            size += bytes
        }
        try await send()
        return ids
    }
}
