import FerryKit
import FerryQueue
import Foundation

/// `SessionFile` writes aria2's session file (`saveSession`, the `save-session` option): its
/// input-file format, which `aria2c -i` and `ferry add -i` read back. Each unfinished download
/// (waiting, active, paused or failed) is a line of its URIs (TAB-separated mirrors), then its
/// options on lines that begin with a space: ` gid=`, ` dir=`, ` out=`, one ` header=` per
/// header, the connections, limits and tries, ` pause=true` for a paused one, and its own trust,
/// login, proxy and cookie options (the password too, as aria2 saves it: the file is mode 0600).
/// Uploads have no form in aria2's format and are left out.
enum SessionFile {
    /// `states` are the tasks a session file keeps: those not done and not removed.
    static let states: Set<TaskState> = [.queued, .running, .paused, .failed]

    /// `check(_:origin:)` checks a `save-session` path before it is kept: absolute, in a
    /// directory that exists, and not a file of another kind (an existing non-empty file must
    /// begin as a session file does, with a URI or a comment), so a client cannot have Ferry replace
    /// `~/.bashrc`; over TCP, no part may start with '.'.
    static func check(_ path: String, origin: RPCOrigin) throws(RPCError) -> String {
        guard path.hasPrefix("/"), !path.contains("\0"), !path.hasSuffix("/") else {
            throw RPCError.failed("save-session must be an absolute file path")
        }
        if origin == .network { try AddOptions.refuseDotParts(path) }
        let parent = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RPCError.failed("save-session \(path.prefix(256)): no directory \(parent.prefix(256))")
        }
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            let head = String(decoding: (try? handle.read(upToCount: 64)) ?? Data(), as: UTF8.self)
            guard head.isEmpty || head.hasPrefix("#") || beginsWithURI(head) else {
                throw RPCError.failed("save-session \(path.prefix(256)) exists and is not a session file (it does not begin with a URI); name a new file")
            }
        }
        return path
    }

    /// `beginsWithURI(_:)` is true when `text` starts with a URI's scheme and `:` (`https:`,
    /// `ftp:`, `magnet:`), as every entry of aria2's session files does.
    static func beginsWithURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else { return false }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
    }

    /// `text(_:engine:)` is the session file of `records`.
    static func text(_ records: [TaskRecord], engine: RPCEngine) -> String {
        var text = ""
        for record in records where record.kind == .download {
            let spec = record.spec
            text += spec.urls.map(\.string).joined(separator: "\t") + "\n"
            var lines = ["gid=\(GID.string(for: record.id))", "dir=\(DownloadStatus.directory(of: record, engine: engine))"]
            if let name = spec.requestedName { lines.append("out=\(name)") }
            lines += spec.headers.map { "header=\($0.name): \($0.value)" }
            if let connections = spec.options.connections {
                lines += ["split=\(connections)", "max-connection-per-server=\(connections)"]
            }
            if let size = spec.options.minSplitSize { lines.append("min-split-size=\(size)") }
            if let limit = spec.options.maxDownloadLimit { lines.append("max-download-limit=\(limit)") }
            if let retries = spec.options.retries { lines.append("max-tries=\(retries + 1)") }
            if spec.overwrite { lines.append("allow-overwrite=true") }
            if let checksum = spec.checksum { lines.append("checksum=\(checksum.description)") }
            if spec.useContentDisposition { lines.append("content-disposition=true") }
            if record.priority != 0 { lines.append("priority=\(record.priority)") }
            if record.state == .paused { lines.append("pause=true") }
            for option in spec.connection.options(revealingSecrets: true) {
                lines += option.values.map { "\(option.key)=\($0)" }
            }
            text += lines.map { " " + $0.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined()
        }
        return text
    }

    /// `write(_:to:)` writes `text` to `path` whole (a new file, mode 0600, then a rename over
    /// the old one), so a reader never sees half a session.
    static func write(_ text: String, to path: String) throws(RPCError) {
        let temporary = path + ".ferry-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw RPCError.failed("Failed to serialize session to '\(path)'.")
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw RPCError.failed("Failed to serialize session to '\(path)'.")
        }
    }
}
