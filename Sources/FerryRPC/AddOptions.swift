import FerryKit
import FerryQueue
import Foundation

/// `AddOptions` are the options of a new task that Ferry reads (`aria2.addUri`,
/// `ferry.add`), checked: aria2's `dir`, `out`, `header`, `checksum`, `max-download-limit`,
/// `pause`, `allow-overwrite`, `split`, `max-connection-per-server` (the download uses the
/// smaller), `min-split-size`, and Ferry's own `priority`, `retries` and
/// `content-disposition`. Values are strings, as aria2's clients send them (numbers and
/// booleans are accepted too).
struct AddOptions {
    var directory: String?
    var name: String?
    var headers: [HeaderField] = []
    var checksum: Checksum?
    var maxDownloadLimit: Int64?
    var paused = false
    var overwrite = false
    var priority = 0
    var retries: Int?
    var contentDisposition = false
    var split: Int?
    var connectionsPerServer: Int?
    var minSplitSize: Int64?

    /// `init(_:)` reads and checks the options; the first problem is the error. Unknown
    /// options are ignored, as aria2's clients send many Ferry has no use for.
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
                    headers.append(try AddOptions.checked { () throws(QueueError) in try HeaderField(parsing: text) })
                }
            case "checksum":
                let text = try AddOptions.text(key, value)
                checksum = try AddOptions.checked { () throws(QueueError) in try Checksum(parsing: text) }
            case "max-download-limit":
                let text = try AddOptions.text(key, value)
                maxDownloadLimit = try AddOptions.checked { () throws(QueueError) in try TaskOptions.parseRate(text) }
            case "pause":
                paused = try AddOptions.flag(key, value)
            case "allow-overwrite":
                overwrite = try AddOptions.flag(key, value)
            case "content-disposition":
                contentDisposition = try AddOptions.flag(key, value)
            case "priority":
                priority = try AddOptions.integer(key, value, in: Int.min...Int.max)
            case "retries":
                retries = try AddOptions.integer(key, value, in: 0...Int.max)
            case "split":
                split = try AddOptions.connections(key, value)
            case "max-connection-per-server":
                connectionsPerServer = try AddOptions.connections(key, value)
            case "min-split-size":
                let text = try AddOptions.text(key, value)
                let size = try AddOptions.checked { () throws(QueueError) in try TaskOptions.parseRate(text) }
                guard let size, size >= 1024 else { throw RPCError.failed("min-split-size must be at least 1K, e.g. 1M or 20M") }
                minSplitSize = size
            default:
                continue
            }
        }
    }

    /// `task(urls:upload:)` is the new task these options describe, with `urls` as mirrors.
    func task(urls: [TransferURL], upload: UploadSpec? = nil) -> NewTask {
        NewTask(
            spec: TaskSpec(urls: urls, headers: headers, destinationDirectory: directory, requestedName: name,
                           overwrite: overwrite, checksum: checksum, useContentDisposition: contentDisposition,
                           options: TaskOptions(maxDownloadLimit: maxDownloadLimit, retries: retries,
                                                connections: [split, connectionsPerServer].compactMap { $0 }.min(),
                                                minSplitSize: minSplitSize), upload: upload),
            priority: priority, startsPaused: paused)
    }

    /// `urls(_:)` checks a list of URIs (http or https, no secrets shown in an error).
    static func urls(_ list: [JSONValue]) throws(RPCError) -> [TransferURL] {
        var urls: [TransferURL] = []
        for item in list {
            guard let text = item.stringValue else { throw RPCError.invalidParams("URIs must be strings") }
            urls.append(try checked { () throws(QueueError) in try TransferURL(validating: text) })
        }
        return urls
    }

    /// `checked(_:)` runs a check of FerryQueue's and turns its error into an RPC error.
    static func checked<T>(_ body: () throws(QueueError) -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch {
            throw RPCError.failed(error.description)
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

    private static func connections(_ key: String, _ value: JSONValue) throws(RPCError) -> Int {
        guard let count = Int(try text(key, value)), TaskOptions.connectionRange.contains(count) else {
            throw RPCError.failed("\(key) must be 1 to 16")
        }
        return count
    }

    private static func flag(_ key: String, _ value: JSONValue) throws(RPCError) -> Bool {
        switch try text(key, value) {
        case "true": return true
        case "false": return false
        default: throw RPCError.failed("\(key) must be true or false")
        }
    }

    private static func integer(_ key: String, _ value: JSONValue, in range: ClosedRange<Int>) throws(RPCError) -> Int {
        guard let number = Int(try text(key, value)), range.contains(number) else {
            throw RPCError.failed(range.lowerBound == 0 ? "\(key) must be 0 or more" : "\(key) must be a whole number")
        }
        return number
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
