import FerryKit
import FerryQueue
import Foundation

/// `DownloadJournal` records the downloads of `ferry get` in the state directory's journal,
/// where the scheduler runs them, so that running the same command again resumes the
/// unfinished ones and skips the finished ones.
///
/// It is the run's engine (`EngineHost`: the engine lock, from `open` to `close()`). Safe to
/// use from any thread (the journal and the host are).
final class DownloadJournal: Sendable {
    /// `Entry` is one download of this run: its task, and the offset it resumes from (0 for
    /// a fresh start).
    struct Entry: Sendable {
        let id: TaskID
        let resumesAt: Int64

        init(id: TaskID, resumesAt: Int64) {
            self.id = id
            self.resumesAt = resumesAt
        }

        /// `init(requeued:)` is the entry of an earlier run's download queued again: it
        /// resumes at its durable offset only while its `.part` still holds those bytes (a
        /// `.part` deleted meanwhile starts over from zero).
        init(requeued record: TaskRecord) {
            let offset = record.resume.durableOffset
            let parts = TaskFiles.paths(of: record, defaultDirectory: FileManager.default.currentDirectoryPath)
                .filter { $0.hasSuffix(".part") }
            let kept = parts.contains { path in
                var info = stat()
                return stat(path, &info) == 0 && Int64(info.st_size) >= offset
            }
            self.init(id: record.id, resumesAt: offset > 0 && kept ? offset : 0)
        }
    }

    /// `host` is the run's engine, whose scheduler runs the downloads.
    let host: EngineHost
    var journal: Journal { host.journal }
    /// `directory` is the state directory the journal lives in.
    var directory: StateDirectory { host.directory }

    private init(host: EngineHost) {
        self.host = host
    }

    /// Opens the journal of `--state-dir` (else `$FERRY_STATE_DIR`, else the XDG default),
    /// taking the engine lock first. A journal that had to be set aside is reported on stderr.
    static func open(stateDirectory argument: String?, environment: [String: String]) throws(QueueError) -> DownloadJournal {
        let directory = try StateDirectory.prepare(argument: argument, environment: environment)
        return DownloadJournal(host: try EngineHost.acquire(directory, policy: .moveAside))
    }

    /// Ends the run's engine: the network watch, the journal, the engine lock.
    func close() {
        host.close()
    }

    /// `matches(_:url:directory:name:)` is true when `record` is a download of `url` into
    /// `directory` under the requested name `name` (`nil`: named after the URL).
    static func matches(_ record: TaskRecord, url: URL, directory: URL, name: String?) -> Bool {
        matches(record, urls: [url.absoluteString], directory: directory, name: name)
    }

    /// `matches(_:urls:directory:name:)` is true when `record` is a download of one file from
    /// `urls` (all of them, in order: a Metalink's sources; the mirrors a server named since,
    /// Metalink/HTTP, come after them) into `directory` under `name`.
    static func matches(_ record: TaskRecord, urls: [String], directory: URL, name: String?) -> Bool {
        record.spec.urls.count >= urls.count && zip(record.spec.urls, urls).allSatisfy { $0.string == $1 }
            && record.spec.destinationDirectory == directory.path && record.spec.requestedName == name
    }
}

extension Journal {
    /// The unfinished download tasks (queued, running, paused or failed), at most 100 000.
    func unfinishedDownloads() throws(QueueError) -> [TaskRecord] {
        try tasks(in: [.queued, .running, .paused, .failed], limit: 100_000).filter { $0.kind == .download }
    }

    /// The finished downloads, at most 100 000, the latest first.
    func finishedDownloads() throws(QueueError) -> [TaskRecord] {
        try tasks(in: [.done], limit: 100_000).filter { $0.kind == .download }.reversed()
    }
}
