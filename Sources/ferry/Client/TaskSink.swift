import FerryQueue
import FerryRPC

/// `TaskSink` is where `ferry add` puts new tasks: the queue's `ferry.add` (see
/// `QueueClient`), over a socket in requests of at most its `requestLimit` bytes. An engine
/// of the whole queue (a daemon, `ferry resume`) starts them at once; a `ferry get` leaves
/// them for the next.
struct TaskSink {
    private let client: QueueClient

    /// `open(_:)` is the sink of `options`' queue.
    static func open(_ options: StateOptions) throws -> TaskSink {
        TaskSink(client: try QueueClient.open(options))
    }

    /// `insert(_:)` adds `tasks` in order and returns their ids.
    func insert(_ tasks: [NewTask]) async throws -> [TaskID] {
        var ids: [TaskID] = []
        var batch: [JSONValue] = []
        var size = 0
        func send() async throws {
            guard !batch.isEmpty else { return }
            let gids: [TaskID] = try await client.answer("ferry.add", [.array(batch)]) { answer in
                let ids = answer.arrayValue?.compactMap { $0.stringValue.flatMap(GID.taskID) }
                return ids?.count == batch.count ? ids : nil
            }
            ids += gids
            batch.removeAll(keepingCapacity: true)
            size = 0
        }
        // In this process nothing is written out: the whole list goes in one call.
        let limit = client.requestLimit
        for task in tasks {
            let request = TaskRequest.json(task)
            if let limit {
                let bytes = request.serialized().count
                if size + bytes > limit { try await send() }
                size += bytes
            }
            batch.append(request)
        }
        try await send()
        return ids
    }

    /// `close()` closes the journal, if this process opened one.
    func close() {
        client.close()
    }
}
