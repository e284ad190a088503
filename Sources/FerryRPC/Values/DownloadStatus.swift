import FerryKit
import FerryQueue
import Foundation

/// `DownloadStatus` makes aria2's status object of a task (`tellStatus`, `tellActive`...):
/// every number a string, URLs masked, paths as the task has them.
enum DownloadStatus {
    /// `pieceLength` is the piece length reported to clients (aria2's default, 1 MiB); Ferry
    /// has no pieces, clients only show it.
    static let pieceLength = PieceMap.pieceLength

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

    /// `Key` is a key of the status object, declared in the order keys are written (sorted,
    /// as `JSONValue` writes an object's keys).
    enum Key: Int, CaseIterable {
        case bitfield, completedLength, connections, dir, downloadSpeed, errorCode, errorMessage, ferrySources, files, gid,
             numPieces, pieceLength, status, totalLength, uploadLength, uploadSpeed

        /// `name` is the key as clients spell it.
        var name: String { Key.names[rawValue] }

        /// `all` is every key, in order (made once: `allCases` makes its list at every use).
        static let all = allCases

        private static let names = ["bitfield", "completedLength", "connections", "dir", "downloadSpeed", "errorCode", "errorMessage",
                                    "ferry-sources", "files", "gid", "numPieces", "pieceLength", "status", "totalLength", "uploadLength",
                                    "uploadSpeed"]
    }

    /// `Keys` is a key filter read once for a whole list of tasks: which keys to write.
    struct Keys: Hashable {
        private var bits: UInt32 = 0

        /// `init(_:)` keeps the known keys of `names`; `nil` or an empty list means every key,
        /// as in aria2.
        init(_ names: Set<String>?) {
            for key in Key.allCases where names?.isEmpty != false || names?.contains(key.name) == true {
                bits |= 1 << key.rawValue
            }
        }

        func contains(_ key: Key) -> Bool { bits & (1 << key.rawValue) != 0 }
    }

    /// `json(_:engine:keys:)` is the status object of `record`, only `keys` when given (an
    /// empty list means every key, as in aria2).
    static func json(_ record: TaskRecord, engine: RPCEngine, keys: Set<String>? = nil) -> JSONValue {
        var writer = JSONByteWriter()
        write(record, engine: engine, keys: Keys(keys), into: &writer)
        return .encoded(writer.data)
    }

    /// `list(_:engine:keys:)` is the status objects of `records`, in their order.
    ///
    /// A front end polls lists of up to 1,000 tasks every second: they are written straight
    /// into text, and only the keys asked for (the file list, with its path and masked URLs,
    /// cost more than the other keys together).
    static func list(_ records: [TaskRecord], engine: RPCEngine, keys: Keys) -> JSONValue {
        var writer = JSONByteWriter(capacity: 64 + 400 * records.count)
        writer.beginArray()
        let budget = AnswerBudget.current
        for index in records.indices {
            write(records[index], engine: engine, keys: keys, into: &writer)
            // Past the request's budget the list stops; the dispatcher answers an error.
            if let budget, !budget.fits(writer.bytes.count) { return .array([]) }
        }
        writer.endArray()
        return .encoded(writer.data)
    }

    /// `write(_:engine:keys:into:)` writes the status object of `record` with `keys`.
    private static func write(_ record: TaskRecord, engine: RPCEngine, keys: Keys, into writer: inout JSONByteWriter) {
        let (live, total, completed) = progress(of: record, engine: engine)
        // A task paused by an error (a full disk) says why too, which aria2 has no state for.
        let failure = record.state == .failed || record.state == .paused ? engine.runner.failures.kind(of: record.id) : nil
        let failed = record.state == .failed || failure != nil
        writer.beginObject()
        for key in Key.all where keys.contains(key) {
            if key == .errorCode || key == .errorMessage, !failed { continue }
            // Ferry's own: only a download fetched from several sources at once has them.
            if key == .ferrySources, live?.sources == nil { continue }
            writer.key(key.name)
            switch key {
            case .completedLength: writer.integerString(completed)
            case .bitfield: writer.string(bitfield(of: record, engine: engine, total: total, completed: completed))
            case .connections: writer.integerString(live.map { Int64($0.connections ?? 1) } ?? 0)
            case .dir: writer.string(directory(of: record, engine: engine))
            case .downloadSpeed: writer.integerString(live.map { $0.isSending ? 0 : Int64($0.bytesPerSecond) } ?? 0)
            case .errorCode: writer.string(Aria2ErrorCode.code(for: failure))
            case .errorMessage: writer.string(record.lastError ?? "failed")
            case .ferrySources: writeSources(live?.sources ?? [], into: &writer)
            case .files: writeFiles(record, engine: engine, total: total, completed: completed, into: &writer)
            case .gid: writer.string(GID.string(for: record.id))
            case .numPieces: writer.integerString((total + pieceLength - 1) / pieceLength)
            case .pieceLength: writer.integerString(pieceLength)
            // A task handed to the engine ahead of need waits there until a place frees.
            case .status: writer.string(record.state == .running && live == nil ? "waiting" : name(of: record.state))
            case .totalLength: writer.integerString(total)
            case .uploadLength: writer.integerString(live?.sentBytes ?? 0)
            case .uploadSpeed: writer.integerString(live.map { $0.isSending ? Int64($0.bytesPerSecond) : 0 } ?? 0)
            }
        }
        writer.endObject()
    }

    /// `files(_:engine:)` is aria2's file list of a task: always one file.
    static func files(_ record: TaskRecord, engine: RPCEngine) -> JSONValue {
        let (_, total, completed) = progress(of: record, engine: engine)
        var writer = JSONByteWriter()
        writeFiles(record, engine: engine, total: total, completed: completed, into: &writer)
        return .encoded(writer.data)
    }

    /// `progress(of:engine:)` is a task's live progress while it runs, its length and its
    /// bytes done: live while it runs, else from the journal (the durable offset).
    private static func progress(of record: TaskRecord, engine: RPCEngine) -> (TransferProgress?, total: Int64, completed: Int64) {
        let live = record.state == .running ? engine.live.progress(of: record.id) : nil
        let total = live?.expectedBytes ?? record.resume.totalLength ?? (readsDisk(record) ? fileSize(record) : nil) ?? 0
        if let live {
            return (live, total, live.completedBytes)
        }
        // A failed upload's recorded length is the body sent before the server's answer.
        let ended = record.state == .done || (record.state == .failed && record.spec.upload != nil)
        return (nil, total, ended ? total : record.resume.durableOffset)
    }

    /// `writeFiles(_:engine:total:completed:into:)` writes the one file's object, in a list.
    private static func writeFiles(_ record: TaskRecord, engine: RPCEngine, total: Int64, completed: Int64,
                                   into writer: inout JSONByteWriter) {
        writer.beginArray()
        writer.beginObject()
        writer.key("completedLength")
        writer.integerString(completed)
        writer.key("index")
        writer.string("1")
        writer.key("length")
        writer.integerString(total)
        writer.key("path")
        writer.string(path(of: record, engine: engine))
        writer.key("selected")
        writer.string("true")
        writer.key("uris")
        writeURIs(record, engine: engine, into: &writer)
        writer.endObject()
        writer.endArray()
    }

    /// `uris(_:engine:)` is the task's URLs, masked: the first `used` once the task has been
    /// tried (aria2: a URI a connection took), every other `waiting`.
    static func uris(_ record: TaskRecord, engine: RPCEngine) -> JSONValue {
        var writer = JSONByteWriter()
        writeURIs(record, engine: engine, into: &writer)
        return .encoded(writer.data)
    }

    /// `hasBeenTried(_:engine:)` is true once a transfer of the task began: it is live, or the
    /// journal counts an attempt (`startedAt` is stamped when the engine is handed the task,
    /// which may hold it back: not a sign of a transfer).
    static func hasBeenTried(_ record: TaskRecord, engine: RPCEngine) -> Bool {
        record.attempts > 0 || engine.live.progress(of: record.id) != nil
    }

    /// A download from several sources at once has used every source a connection took (or
    /// that was dropped); any other, its first URL once tried.
    private static func writeURIs(_ record: TaskRecord, engine: RPCEngine, into writer: inout JSONByteWriter) {
        let sources = record.state == .running ? engine.live.progress(of: record.id)?.sources : nil
        let used: Set<String> = Set((sources ?? []).filter { $0.state != "waiting" || $0.bytes > 0 }.map(\.url.absoluteString))
        let firstUsed = sources == nil && hasBeenTried(record, engine: engine)
        writer.beginArray()
        for (index, url) in record.spec.urls.enumerated() {
            writer.beginObject()
            writer.key("status")
            writer.string((index == 0 && firstUsed) || used.contains(url.string) ? "used" : "waiting")
            writer.key("uri")
            writer.string(url.masked)
            writer.endObject()
        }
        writer.endArray()
    }

    /// `writeSources(_:into:)` writes each source of a download fetched from several at once
    /// as `getServers` lists it.
    static func writeSources(_ sources: [SourceReport], into writer: inout JSONByteWriter) {
        writer.beginArray()
        for source in sources {
            writeServer(uri: URLMasking.mask(source.url), speed: source.speed, source: source, into: &writer)
        }
        writer.endArray()
    }

    /// `writeServer(uri:speed:source:into:)` writes one of aria2's server objects (`uri`,
    /// `currentUri`, `downloadSpeed`) and, for a source of a download from several at once,
    /// Ferry's `ferry-state` (`active`, `waiting`, `demoted`, `dropped`), `ferry-connections`,
    /// `ferry-bytes`, `ferry-bad-pieces` and `ferry-reason` (why it was dropped); numbers as strings.
    static func writeServer(uri: String, speed: Int64, source: SourceReport?, into writer: inout JSONByteWriter) {
        writer.beginObject()
        writer.key("currentUri")
        writer.string(uri)
        writer.key("downloadSpeed")
        writer.integerString(speed)
        if let source {
            writer.key("ferry-bad-pieces")
            writer.integerString(Int64(source.badPieces))
            writer.key("ferry-bytes")
            writer.integerString(source.bytes)
            writer.key("ferry-connections")
            writer.integerString(Int64(source.connections))
            if let reason = source.reason {
                writer.key("ferry-reason")
                writer.string(reason)
            }
            writer.key("ferry-state")
            writer.string(source.state)
        }
        writer.key("uri")
        writer.string(uri)
        writer.endObject()
    }

    /// `directory(of:engine:)` is where the task saves its file.
    static func directory(of record: TaskRecord, engine: RPCEngine) -> String {
        record.spec.destinationDirectory ?? engine.defaultDirectory
    }

    /// `path(of:engine:)` is the file's path: the final one once known, else the name it
    /// writes (`NAME.1.ext` when the name was taken) or the requested name in its directory,
    /// else empty (aria2 too says nothing before the name is known).
    static func path(of record: TaskRecord, engine: RPCEngine) -> String {
        if let finalPath = record.finalPath { return finalPath }
        guard let name = record.fileName ?? record.spec.requestedName else { return "" }
        let directory = directory(of: record, engine: engine)
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `readsDisk(_:)` tells whether the status of `record` reads its file: a finished
    /// download whose length the journal does not hold is listed with its file's size.
    static func readsDisk(_ record: TaskRecord) -> Bool {
        record.state == .done && record.resume.totalLength == nil
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
