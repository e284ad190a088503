import FerryQueue

/// `Aria2Notification` turns the scheduler's events into aria2's notifications, sent to
/// WebSocket clients: `{"jsonrpc": "2.0", "method": "aria2.onDownloadStart", "params": [{"gid": ...}]}`.
enum Aria2Notification {
    /// `names` are the notifications Ferry sends (`system.listNotifications`).
    static let names = [
        "aria2.onDownloadStart", "aria2.onDownloadPause", "aria2.onDownloadStop",
        "aria2.onDownloadComplete", "aria2.onDownloadError",
    ]

    /// `message(for:)` is the notification of an event, or `nil` for events aria2 does not
    /// notify: progress, and an attempt that ended with its task queued again (a retry, or
    /// the daemon stopping). Tasks paused or removed with no transfer in flight send no event:
    /// `RPCEngine` notifies them itself.
    static func message(for event: SchedulerEvent) -> String? {
        let name: String
        let id: TaskID
        switch event {
        case .started(let task):
            (name, id) = ("aria2.onDownloadStart", task)
        case .ended(let task, .paused, _, _):
            (name, id) = ("aria2.onDownloadPause", task)
        case .ended(let task, .done, _, _):
            (name, id) = ("aria2.onDownloadComplete", task)
        case .ended(let task, .failed, _, _):
            (name, id) = ("aria2.onDownloadError", task)
        case .ended(let task, .cancelled, _, _):
            (name, id) = ("aria2.onDownloadStop", task)
        case .ended, .progress, .transferred, .journalChanged, .willRetry, .note:
            return nil
        }
        return message(name, id)
    }

    /// `message(_:_:)` is the notification `name` about task `id`.
    static func message(_ name: String, _ id: TaskID) -> String {
        let message: JSONValue = ["jsonrpc": "2.0", "method": .string(name), "params": [["gid": .string(GID.string(for: id))]]]
        return String(decoding: message.serialized(), as: UTF8.self)
    }
}
