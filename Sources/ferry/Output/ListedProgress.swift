import FerryKit
import FerryQueue
import FerryRPC

/// `ListedProgress` is how far a task is, as `ferry list` shows it: bytes done and the size
/// from the journal (the durable offset, the recorded length), or, for a task a daemon runs
/// now, its live bytes and speed.
struct ListedProgress {
    /// `completed` is the bytes done.
    var completed: Int64
    /// `total` is the size; `nil` while unknown.
    var total: Int64?
    /// `speed` is the live rate in bytes per second; `nil` when the task is not running in a
    /// daemon (the journal holds no speed).
    var speed: Double?
    /// `connections` is how many connections the task uses now: live from a daemon; `nil`
    /// when unknown (not running in a daemon).
    var connections: Int?
    /// `sources` are the sources of a download a daemon fetches from several at once, as
    /// `ferry-sources` reports them (each an object of strings); `nil` otherwise.
    var sources: [[String: JSONValue]]?
    /// `sentOnly` is true for an upload the server rejected: `completed` is what was sent,
    /// and the whole size is not known.
    var sentOnly = false

    /// `init(record:state:live:)` is the progress of `record` in the state shown, live when
    /// the daemon reported it.
    init(record: TaskRecord, state: TaskState, live: ListedProgress?) {
        if let live, state == .running {
            self = live
            return
        }
        total = record.resume.totalLength
        completed = state == .done ? (total ?? record.resume.durableOffset) : record.resume.durableOffset
        speed = nil
        connections = state == .running ? nil : 0
        // A failed upload's recorded length is the body sent before the server's answer.
        if state == .failed, record.spec.upload != nil, let sent = total {
            completed = sent
            total = nil
            sentOnly = true
        }
    }

    /// `init(completed:total:speed:)` makes a value (a daemon's live report).
    init(completed: Int64, total: Int64?, speed: Double?) {
        self.completed = completed
        self.total = total
        self.speed = speed
    }

    /// `fraction` is the part done, `nil` while the size is unknown.
    var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return Double(min(completed, total)) / Double(total)
    }

    /// `percent` is the whole percentage done, rounded down.
    var percent: Int? {
        fraction.map { Int(($0 * 100).rounded(.down)) }
    }

    /// `secondsLeft` is the time left at the live speed; `nil` without one or a size.
    var secondsLeft: Double? {
        guard let speed, speed > 0, let total, total >= completed else { return nil }
        return Double(total - completed) / speed
    }

    /// `columns` are the %, size, speed and ETA columns as people read them, `-` where unknown.
    var columns: (percent: String, size: String, speed: String, eta: String) {
        (fraction.map(ByteFormatting.percent) ?? "-",
         total.map(ByteFormatting.size) ?? (sentOnly ? ByteFormatting.size(completed) + " sent" : "-"),
         speed.map(ByteFormatting.speed) ?? "-", secondsLeft.map { ByteFormatting.duration($0) } ?? "-")
    }

    /// `live(from:)` asks a daemon running the queue for its running tasks' progress
    /// (`aria2.tellActive`: the tasks it started, not those it holds back for the limits);
    /// `nil` when no daemon runs or it does not answer.
    static func live(from state: StateOptions) async throws -> [TaskID: ListedProgress]? {
        var table: [TaskID: ListedProgress]?
        _ = try await DaemonClient.acting(on: state) { daemon in
            let keys: JSONValue = ["gid", "completedLength", "totalLength", "downloadSpeed", "uploadSpeed", "connections", "ferry-sources"]
            // A daemon that does not answer as expected leaves the list without live figures.
            guard let statuses = try? await ControlClient.call(socketPath: daemon.socketPath, method: "aria2.tellActive",
                                                               params: [keys]).arrayValue else { return }
            var answered: [TaskID: ListedProgress] = [:]
            for status in statuses {
                guard let fields = status.objectValue, let id = fields["gid"]?.stringValue.flatMap(GID.taskID),
                      let completed = fields["completedLength"]?.integerValue else { continue }
                let total = fields["totalLength"]?.integerValue.flatMap { $0 > 0 ? $0 : nil }
                let speed = (fields["downloadSpeed"]?.integerValue ?? 0) + (fields["uploadSpeed"]?.integerValue ?? 0)
                // A transfer that has received nothing yet has no rate to show (not 0 B/s).
                var progress = ListedProgress(completed: completed, total: total, speed: speed > 0 || completed > 0 ? Double(speed) : nil)
                progress.connections = fields["connections"]?.integerValue.map { Int($0) }
                progress.sources = fields["ferry-sources"]?.arrayValue?.compactMap(\.objectValue)
                answered[id] = progress
            }
            table = answered
        }
        return table
    }

    /// `shownState(of:live:)` is the state `ferry list` shows: the journal's, except that a
    /// task running in the journal that a daemon answering does not list among the `live` ones
    /// it transfers is queued, as the terminal UI and `aria2.tellStatus` say.
    static func shownState(of record: TaskRecord, live: [TaskID: ListedProgress]?) -> TaskState {
        guard record.state == .running else { return record.state }
        if let live { return live[record.id] == nil ? .queued : .running }
        return .running
    }
}
