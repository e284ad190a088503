import FerryKit
import FerryQueue
import Foundation

/// `AddOptions` are the options of a new task that Ferry reads (`aria2.addUri`,
/// `ferry.add`), checked by `TaskOptionTable`, the table batch files and the configuration
/// file read too: aria2's `dir`, `out`, `header`, `checksum`, `max-download-limit`, `pause`,
/// `allow-overwrite`, `split`, `max-connection-per-server`, `min-split-size`, the trust,
/// login, proxy and cookie options (`check-certificate`, `ca-certificate`, `http-user`,
/// `all-proxy`, `load-cookies`, ...), and Ferry's own `priority`, `retries`, `pin` and
/// `content-disposition`. Values are strings, as aria2's clients send them (numbers and
/// booleans are accepted too); `dir` must be absolute and is created if missing.
struct AddOptions {
    var draft = TaskDraft()
    /// `ignored` are the options given that Ferry accepts without using (aria2's it has no
    /// use for, or unknown ones), with their values and why.
    var ignored: [String: OptionMemory.Ignored] = [:]

    /// `init(_:origin:)` reads and checks the options; the first problem is the error. Options
    /// Ferry does not use are accepted and listed in `ignored`, as aria2's clients send many it
    /// has no use for. Over TCP
    /// (`origin` `.network`) a `dir` with a part starting with '.' (`/root/.ssh`, `x/.config`)
    /// is refused, as `out` refuses one: a remote client must not write into dot directories.
    init(_ options: [String: JSONValue], origin: RPCOrigin = .local) throws(RPCError) {
        // In a fixed order, so the first problem named is the same each time.
        for key in options.keys.sorted() {
            guard let value = options[key] else { continue }
            if let reason = try AddOptions.read(key, value, into: &draft) {
                ignored[key] = OptionMemory.Ignored(value: AddOptions.texts(key, value).joined(separator: "\n"), reason: reason)
            }
        }
        if let directory = draft.directory {
            if origin == .network { try AddOptions.refuseDotParts(directory) }
            draft.directory = try AddOptions.directory(directory)
        }
        if let subdirectory = draft.subdirectory {
            guard let directory = draft.directory else {
                throw RPCError.failed("out with a directory part (\(subdirectory)/...) needs dir too")
            }
            _ = try AddOptions.directory(directory + "/" + subdirectory, named: "out")
        }
    }

    /// `repeatable` are the options that may be given as a list of values.
    static let repeatable: Set<String> = ["header", "pin", "load-cookies"]

    /// `read(_:_:into:)` reads option `key` (a value, or a list of them for a repeatable one)
    /// into `draft` through `TaskOptionTable`; a bad value is the error. Returns why the
    /// option is accepted but not used, `nil` when it is used.
    @discardableResult
    static func read(_ key: String, _ value: JSONValue, into draft: inout TaskDraft) throws(RPCError) -> String? {
        guard TaskOptionTable.option(named: key) != nil else { return ignoredReason(key) }
        var ignored: String?
        for item in repeatable.contains(key) ? (value.arrayValue ?? [value]) : [value] {
            let text = try text(key, item)
            // An empty header (a front end clearing the field) adds none.
            if key == "header", text.isEmpty { continue }
            do {
                ignored = try checked { () throws(QueueError) in try TaskOptionTable.read(key, text, into: &draft) }
            } catch {
                // The error names the option, as a front end shows it beside many.
                throw error.message.contains(key) ? error : RPCError.failed("\(key.prefix(64)): \(error.message)")
            }
        }
        if key == "save-cookies", let jar = draft.connection.cookieJar { try cookieJar(jar) }
        return ignored
    }

    /// `ignoredReason(_:)` says why an option that is not in `TaskOptionTable` is not used.
    static func ignoredReason(_ key: String) -> String {
        if let reason = TaskOptionTable.ignored[key] { return reason }
        return Aria2OptionDefaults.byName[key] != nil ? "an aria2 option Ferry does not use" : "not an option Ferry knows"
    }

    /// `texts(_:_:)` are an option's values as text, as `read(_:_:into:)` reads them (empty
    /// for a value of another type).
    static func texts(_ key: String, _ value: JSONValue) -> [String] {
        (repeatable.contains(key) ? (value.arrayValue ?? [value]) : [value]).compactMap { try? text(key, $0) }
    }

    /// `cookieJarHeaders` are the first lines of the cookie files libcurl and browsers write.
    static let cookieJarHeaders = ["# Netscape HTTP Cookie File", "# HTTP Cookie File"]

    /// `cookieJar(_:)` readies the `save-cookies` file: an existing non-empty file that does not
    /// start as a cookie file is refused (a jar named over RPC must not replace `~/.bashrc`), and
    /// the jar is made, or set, mode 0600, which libcurl keeps when it writes it (a new file
    /// then a rename, with the old file's mode), as the jar holds session cookies.
    static func cookieJar(_ path: String) throws(RPCError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RPCError.failed("save-cookies \(path.prefix(256)): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw RPCError.failed("save-cookies \(path.prefix(256)) is not a regular file")
        }
        if status.st_size > 0 {
            var start = [UInt8](repeating: 0, count: 64)
            let count = Glibc.read(descriptor, &start, start.count)
            let head = count > 0 ? String(decoding: start[..<count], as: UTF8.self) : ""
            guard cookieJarHeaders.contains(where: { head.hasPrefix($0) }) else {
                throw RPCError.failed("save-cookies \(path.prefix(256)) exists and is not a cookie file (it does not begin with '# Netscape HTTP Cookie File'); name a new file or a jar")
            }
        }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw RPCError.failed("save-cookies \(path.prefix(256)): its mode cannot be set to 0600: \(String(cString: strerror(errno)))")
        }
    }

    /// `paused` is true when the task is added paused.
    var paused: Bool { draft.paused ?? false }

    /// `task(urls:upload:defaultDirectory:)` is the new task these options describe, with
    /// `urls` as mirrors. A download without `dir` is saved in `defaultDirectory` (the
    /// daemon's), recorded now as aria2 fixes a download's `dir` when it is added: a daemon
    /// started later with another `--dir` still finds its `.part`, and every view shows where
    /// it goes.
    func task(urls: [TransferURL], upload: UploadSpec? = nil, defaultDirectory: String? = nil) -> NewTask {
        draft.task(urls: urls, defaults: BatchDefaults(directory: upload == nil ? defaultDirectory : nil), upload: upload)
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

    /// `text(_:_:)` is an option's value as text (a string, or a number or boolean as aria2's clients send them).
    private static func text(_ key: String, _ value: JSONValue) throws(RPCError) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: throw RPCError.invalidParams("option \(key.prefix(64)) must be a string")
        }
    }

    /// `refuseDotParts(_:)` refuses a `dir` with a part starting with '.' other than `.` and
    /// `..` themselves (a hidden directory such as `.ssh` or `.config`).
    static func refuseDotParts(_ path: String) throws(RPCError) {
        for part in path.split(separator: "/") where part.hasPrefix(".") && part != "." && part != ".." {
            throw RPCError.failed("dir must not have a part starting with '.' (\(part.prefix(64))) over TCP")
        }
    }

    /// `directory(_:named:)` checks a `dir` option: an absolute path, created if missing, writable.
    static func directory(_ path: String, named name: String = "dir") throws(RPCError) -> String {
        guard path.hasPrefix("/"), !path.contains("\0") else {
            throw RPCError.failed("dir must be an absolute path")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RPCError.failed("\(name) \(path) cannot be created")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              access(path, W_OK) == 0 else {
            throw RPCError.failed("\(name) \(path) is not a writable directory")
        }
        return path
    }
}
