import FerryKit
import FerryQueue
import Foundation

extension TaskRow {
    /// `init(record:progress:)` shows a journal task: its name, masked URLs, sizes from the
    /// resume record (or from `progress`, the live progress of a running transfer), place in
    /// the queue, state, attempts and last error.
    init(record: TaskRecord, progress: TransferProgress? = nil, segments: [Segment] = []) {
        let spec = record.spec
        var total = record.resume.totalLength
        if record.state == .done, total == nil, let path = record.finalPath { total = Self.fileSize(at: path) }
        var done = record.resume.durableOffset
        if record.state == .done, let total { done = total }
        // A failed upload's recorded length is the body sent before the server's answer.
        if record.state == .failed, spec.kind == .upload, let sent = total {
            done = sent
            total = nil
        }
        self.init(
            id: record.id.rawValue,
            kind: spec.kind == .upload ? .upload : .download,
            name: TaskRow.name(of: record),
            state: record.state,
            priority: record.priority,
            position: Int(clamping: record.position),
            bytesDone: done,
            bytesTotal: total,
            urls: spec.urls.map { URLMasking.mask($0.masked) },
            destination: TaskRow.destination(of: record),
            attempts: record.attempts,
            lastError: record.lastError,
            validators: TaskValidators(
                etag: record.resume.etag,
                lastModified: record.resume.lastModified,
                checksum: spec.checksum?.description
            ),
            reply: record.reply
        )
        speedLimit = spec.options.maxDownloadLimit
        settings = spec.connection.summary.filter { $0.key != "check-certificate" }.map { "\($0.key)=\($0.value)" }
        insecure = spec.connection.insecure
        if !segments.isEmpty {
            doneRanges = Self.doneRanges(of: segments)
        } else if done > 0 {
            doneRanges = [0..<done]
        }
        if let progress, record.state == .running { apply(progress) }
    }

    /// `doneRanges(of:)` are the bytes of a split download on disk: each range from its start
    /// to its durable end.
    static func doneRanges(of segments: [Segment]) -> [Range<Int64>] {
        segments.compactMap { $0.durableOffset > $0.start ? $0.start..<$0.durableOffset : nil }
    }

    /// `apply(_:)` shows live progress: bytes done and expected, speed and time left.
    mutating func apply(_ progress: TransferProgress) {
        bytesDone = progress.completedBytes
        if let expected = progress.expectedBytes { bytesTotal = expected }
        speed = Int64(progress.bytesPerSecond.rounded())
        connections = progress.connections ?? 1
        sources = progress.sources?.map(Self.sourceLine) ?? []
        eta = progress.estimatedSecondsRemaining.map { Int($0.rounded(.up)) }
    }

    /// `sourceLine(_:)` is one source as the details show it: its state, connections, speed,
    /// bad pieces and why it was dropped, then its URL (masked).
    static func sourceLine(_ source: SourceReport) -> String {
        var parts = [source.state]
        if source.connections > 0 { parts.append(source.connections == 1 ? "1 connection" : "\(source.connections) connections") }
        if source.speed > 0 { parts.append(ByteFormatting.speed(Double(source.speed))) }
        if source.badPieces > 0 { parts.append(source.badPieces == 1 ? "1 bad piece" : "\(source.badPieces) bad pieces") }
        if let reason = source.reason { parts.append(reason) }
        return parts.joined(separator: " · ") + " · " + URLMasking.mask(source.url)
    }

    /// `name(of:)` is the name shown in the table for a loaded task.
    static func name(of record: TaskRecord) -> String {
        name(kind: record.kind, label: TaskLabel(record))
    }

    /// `name(kind:label:)` is the name shown in the table: the resolved file, else the name
    /// it writes, else the requested name (`TaskLabel.savedName`), else the last segment of
    /// the URL; for uploads the files sent, else the
    /// URL's segment.
    static func name(kind: TransferKind, label: TaskLabel) -> String {
        if kind == .upload {
            let files = label.uploadNames.map(lastComponent) + [label.uploadBodyFile].compactMap { $0.map(lastComponent) }
            if !files.isEmpty { return files.joined(separator: ", ") }
        } else {
            if let name = label.savedName { return name }
        }
        guard let url = label.firstURL.flatMap({ URL(string: $0.string) }) else {
            return label.firstURL?.masked ?? "?"
        }
        return SafeFileName.fromURL(url)
    }

    /// `destination(of:)` is the local file of a loaded task; see `destination(kind:label:)`.
    static func destination(of record: TaskRecord) -> String {
        destination(kind: record.kind, label: TaskLabel(record))
    }

    /// `destination(kind:label:)` is the local file of a download (resolved, else planned),
    /// or the files an upload sends.
    static func destination(kind: TransferKind, label: TaskLabel) -> String {
        if kind == .upload {
            return (label.uploadPaths + [label.uploadBodyFile].compactMap { $0 }).joined(separator: ", ")
        }
        if let path = label.finalPath { return path }
        let directory = label.destinationDirectory ?? "."
        let name = name(kind: kind, label: label)
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `fileSize(at:)` is the size of the regular file at `path` (links not followed), `nil`
    /// when there is none: the size of a done download recorded before its length was kept.
    private static func fileSize(at path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
