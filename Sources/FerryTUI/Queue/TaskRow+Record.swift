import FerryKit
import FerryQueue
import Foundation

extension TaskRow {
    /// `init(record:progress:)` shows a journal task: its name, masked URLs, sizes from the
    /// resume record (or from `progress`, the live progress of a running transfer), place in
    /// the queue, state, attempts and last error.
    init(record: TaskRecord, progress: TransferProgress? = nil) {
        let spec = record.spec
        let total = record.resume.totalLength
        var done = record.resume.durableOffset
        if record.state == .done, let total { done = total }
        self.init(
            id: record.id.rawValue,
            kind: spec.kind == .upload ? .upload : .download,
            name: TaskRow.name(of: record),
            state: TaskState(record.state),
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
        if let progress, record.state == .running { apply(progress) }
    }

    /// `apply(_:)` shows live progress: bytes done and expected, speed and time left.
    mutating func apply(_ progress: TransferProgress) {
        bytesDone = progress.completedBytes
        if let expected = progress.expectedBytes { bytesTotal = expected }
        speed = Int64(progress.bytesPerSecond.rounded())
        eta = progress.estimatedSecondsRemaining.map { Int($0.rounded(.up)) }
    }

    /// `name(of:)` is the name shown in the table: the resolved file, else the requested
    /// name, else the last segment of the URL; for uploads the files sent, else the URL's segment.
    static func name(of record: TaskRecord) -> String {
        let spec = record.spec
        if let upload = spec.upload {
            let files = upload.files.map { lastComponent($0.filename ?? $0.path) } + [upload.bodyFile].compactMap { $0.map(lastComponent) }
            if !files.isEmpty { return files.joined(separator: ", ") }
        } else {
            if let path = record.finalPath { return lastComponent(path) }
            if let name = spec.requestedName, !name.isEmpty { return name }
        }
        guard let url = spec.urls.first.flatMap({ URL(string: $0.string) }) else {
            return spec.urls.first?.masked ?? "?"
        }
        return SafeFileName.fromURL(url)
    }

    /// `destination(of:)` is the local file of a download (resolved, else planned), or the
    /// files an upload sends.
    static func destination(of record: TaskRecord) -> String {
        let spec = record.spec
        if let upload = spec.upload {
            return (upload.files.map(\.path) + [upload.bodyFile].compactMap { $0 }).joined(separator: ", ")
        }
        if let path = record.finalPath { return path }
        let directory = spec.destinationDirectory ?? "."
        return directory.hasSuffix("/") ? directory + name(of: record) : directory + "/" + name(of: record)
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
