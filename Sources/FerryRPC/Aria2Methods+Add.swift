import FerryKit
import FerryQueue
import Foundation

extension Aria2Methods {
    /// `addUri(uris, options, position)`: one task whose URLs are mirrors of one file, as in
    /// aria2. Options: `dir`, `out`, `header`, `checksum`, `max-download-limit`, `pause`;
    /// others are ignored. Everything is checked before anything is queued.
    @Sendable static func addUri(_ call: RPCCall) async throws(RPCError) -> JSONValue {
        guard let list = call.optional(0)?.arrayValue, !list.isEmpty else {
            throw RPCError.invalidParams("parameter 1 must be a non-empty list of URIs")
        }
        var urls: [TransferURL] = []
        for item in list {
            guard let text = item.stringValue else { throw RPCError.invalidParams("URIs must be strings") }
            do {
                urls.append(try TransferURL(validating: text))
            } catch {
                throw RPCError.failed(error.description)
            }
        }
        let options = try AddOptions(try call.object(1))
        let engine = call.engine
        let task = NewTask(
            spec: TaskSpec(urls: urls, headers: options.headers, destinationDirectory: options.directory,
                           requestedName: options.name, checksum: options.checksum,
                           options: TaskOptions(maxDownloadLimit: options.maxDownloadLimit)),
            startsPaused: options.paused)
        let id = try engine.journalCall { () throws(QueueError) in try engine.journal.insert(task) }
        if let position = call.optional(2)?.integerValue, !options.paused {
            try engine.journalCall { () throws(QueueError) in
                let waiting = try engine.journal.tasks(in: waitingStates, limit: 1, offset: Int(min(max(position, 0), Int64(Int32.max))))
                if let other = waiting.first, other.id != id {
                    _ = try engine.journal.move(id, toPlace: try engine.journal.place(of: other.id))
                }
            }
        }
        await engine.scheduler.journalDidChange()
        return .string(GID.string(for: id))
    }
}

/// `AddOptions` are the options of `aria2.addUri` that Ferry reads, checked.
struct AddOptions {
    var directory: String?
    var name: String?
    var headers: [HeaderField] = []
    var checksum: Checksum?
    var maxDownloadLimit: Int64?
    var paused = false

    /// `init(_:)` reads and checks the options; the first problem is the error.
    init(_ options: [String: JSONValue]) throws(RPCError) {
        for (key, value) in options {
            switch key {
            case "dir":
                directory = try AddOptions.directory(try AddOptions.text(key, value))
            case "out":
                let text = try AddOptions.text(key, value)
                guard SafeFileName.check(requestedName: text) == nil else {
                    throw RPCError.failed("out must be a plain file name (no '/', no leading dot, no control characters)")
                }
                name = text
            case "header":
                let lines: [JSONValue] = value.arrayValue ?? [value]
                for line in lines {
                    guard let text = line.stringValue else { throw RPCError.invalidParams("header must be strings") }
                    do {
                        headers.append(try HeaderField(parsing: text))
                    } catch {
                        throw RPCError.failed(error.description)
                    }
                }
            case "checksum":
                let text = try AddOptions.text(key, value)
                do {
                    checksum = try Checksum(parsing: text)
                } catch {
                    throw RPCError.failed(error.description)
                }
            case "max-download-limit":
                let text = try AddOptions.text(key, value)
                do {
                    maxDownloadLimit = try TaskOptions.parseRate(text)
                } catch {
                    throw RPCError.failed(error.description)
                }
            case "pause":
                switch try AddOptions.text(key, value) {
                case "true": paused = true
                case "false": paused = false
                default: throw RPCError.failed("pause must be true or false")
                }
            default:
                continue
            }
        }
    }

    private static func text(_ key: String, _ value: JSONValue) throws(RPCError) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: throw RPCError.invalidParams("option \(key.prefix(64)) must be a string")
        }
    }

    /// `directory(_:)` checks a `dir` option: an absolute path, created if missing, writable.
    private static func directory(_ path: String) throws(RPCError) -> String {
        guard path.hasPrefix("/"), !path.contains("\0") else {
            throw RPCError.failed("dir must be an absolute path")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RPCError.failed("dir \(path) cannot be created")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              access(path, W_OK) == 0 else {
            throw RPCError.failed("dir \(path) is not a writable directory")
        }
        return path
    }
}
