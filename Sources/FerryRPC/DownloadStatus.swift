import FerryKit
import FerryQueue
import Foundation

/// `DownloadStatus` makes aria2's status object of a task (`tellStatus`, `tellActive`...):
/// every number a string, URLs masked, paths as the task has them.
enum DownloadStatus {
    /// `pieceLength` is the piece length reported to clients (aria2's default, 1 MiB); Ferry
    /// has no pieces, clients only show it.
    static let pieceLength: Int64 = 1 << 20

    /// `name(of:)` is aria2's status of a Ferry state: queued is `waiting`, running `active`,
    /// done `complete`, failed `error`, cancelled `removed`.
    static func name(of state: TaskState) -> String {
        switch state {
        case .queued: return "waiting"
        case .running: return "active"
        case .paused: return "paused"
        case .done: return "complete"
        case .failed: return "error"
        case .cancelled: return "removed"
        }
    }

    /// `json(_:engine:keys:)` is the status object of `record`, only `keys` when given.
    static func json(_ record: TaskRecord, engine: RPCEngine, keys: Set<String>? = nil) -> JSONValue {
        let live = record.state == .running ? engine.live.progress(of: record.id) : nil
        let total = live?.expectedBytes ?? record.resume.totalLength ?? (record.state == .done ? fileSize(record) : nil) ?? 0
        let completed: Int64
        if let live {
            completed = live.completedBytes
        } else if record.state == .done {
            completed = total
        } else {
            completed = record.resume.durableOffset
        }
        var fields: [String: JSONValue] = [
            "gid": .string(GID.string(for: record.id)),
            "status": .string(name(of: record.state)),
            "totalLength": number(total),
            "completedLength": number(completed),
            "uploadLength": number(live?.sentBytes ?? 0),
            "downloadSpeed": number(live.map { $0.isSending ? 0 : Int64($0.bytesPerSecond) } ?? 0),
            "uploadSpeed": number(live.map { $0.isSending ? Int64($0.bytesPerSecond) : 0 } ?? 0),
            "connections": number(record.state == .running ? 1 : 0),
            "pieceLength": number(pieceLength),
            "numPieces": number((total + pieceLength - 1) / pieceLength),
            "dir": .string(directory(of: record, engine: engine)),
            "files": files(record, engine: engine, total: total, completed: completed),
        ]
        // A task paused by an error (a full disk) says why too, which aria2 has no state for.
        let failure = engine.scheduler.failures.kind(of: record.id)
        if record.state == .failed || (record.state == .paused && failure != nil) {
            fields["errorCode"] = .string(Aria2ErrorCode.code(for: failure))
            fields["errorMessage"] = .string(record.lastError ?? "failed")
        }
        if let keys, !keys.isEmpty {
            fields = fields.filter { keys.contains($0.key) }
        }
        return .object(fields)
    }

    /// `files(_:engine:)` is aria2's file list of a task: always one file.
    static func files(_ record: TaskRecord, engine: RPCEngine) -> JSONValue {
        guard case .object(let fields) = json(record, engine: engine, keys: ["files"]), let files = fields["files"] else {
            return []
        }
        return files
    }

    private static func files(_ record: TaskRecord, engine: RPCEngine, total: Int64, completed: Int64) -> JSONValue {
        [.object([
            "index": "1",
            "path": .string(path(of: record, engine: engine)),
            "length": number(total),
            "completedLength": number(completed),
            "selected": "true",
            "uris": uris(record),
        ])]
    }

    /// `uris(_:)` is the task's URLs, masked: the first `used`, its mirrors `waiting`.
    static func uris(_ record: TaskRecord) -> JSONValue {
        .array(record.spec.urls.enumerated().map { index, url in
            .object(["uri": .string(url.masked), "status": index == 0 ? "used" : "waiting"])
        })
    }

    /// `directory(of:engine:)` is where the task saves its file.
    static func directory(of record: TaskRecord, engine: RPCEngine) -> String {
        record.spec.destinationDirectory ?? engine.defaultDirectory
    }

    /// `path(of:engine:)` is the file's path: the final one once known, else the requested
    /// name in its directory, else empty (aria2 too says nothing before the name is known).
    static func path(of record: TaskRecord, engine: RPCEngine) -> String {
        if let finalPath = record.finalPath { return finalPath }
        guard let name = record.spec.requestedName else { return "" }
        let directory = directory(of: record, engine: engine)
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `number(_:)` is a number as aria2 sends every number: a string.
    static func number(_ value: Int64) -> JSONValue {
        .string(String(value))
    }

    private static func fileSize(_ record: TaskRecord) -> Int64? {
        guard let path = record.finalPath,
              let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber else { return nil }
        return size.int64Value
    }
}
