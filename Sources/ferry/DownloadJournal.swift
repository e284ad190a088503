import FerryKit
import FerryQueue
import Foundation

/// `DownloadJournal` records the downloads of `ferry get` in the state directory's journal,
/// so that running the same command again resumes them.
///
/// It holds the engine lock for as long as it is open. Safe to use from any thread (the
/// journal and the lock are).
final class DownloadJournal: Sendable {
    /// `Entry` is one download of this run: its task in the journal and where it resumes from.
    struct Entry: Sendable {
        let id: TaskID
        let resume: ResumeData?
    }

    let journal: Journal
    private let lock: EngineLock
    /// `journal.identity()`, read once.
    private let identity: Int64?

    private init(journal: Journal, lock: EngineLock) {
        self.journal = journal
        self.lock = lock
        identity = try? journal.identity()
    }

    /// Opens the journal of `--state-dir` (else `$FERRY_STATE_DIR`, else the XDG default),
    /// taking the engine lock first. A journal that had to be set aside is reported on stderr.
    static func open(stateDirectory argument: String?, environment: [String: String]) throws(QueueError) -> DownloadJournal {
        let directory = try StateDirectory.prepare(argument: argument, environment: environment)
        let lock = try EngineLock.acquire(at: directory.lockPath)
        let opening = try Journal.open(at: directory.journalPath)
        if let message = opening.message { Console.error(message) }
        try opening.journal.requeueInterrupted()
        return DownloadJournal(journal: opening.journal, lock: lock)
    }

    /// The unfinished download tasks (queued, paused or failed), at most 100 000.
    func unfinishedDownloads() throws(QueueError) -> [TaskRecord] {
        try journal.tasks(in: [.queued, .running, .paused, .failed], limit: 100_000).filter { $0.kind == .download }
    }

    /// `savedFile(url:directory:name:)` is the file a finished download of `url` saved as
    /// `name` in `directory` by an earlier run, when it is still there; `nil` otherwise.
    func savedFile(url: URL, directory: URL, name: String) -> String? {
        guard let done = try? journal.tasks(in: [.done], limit: 100_000) else { return nil }
        for record in done.reversed() where record.kind == .download && Self.matches(record, url: url, directory: directory, name: name) {
            var status = stat()
            if let path = record.finalPath, lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { return path }
        }
        return nil
    }

    /// The task for `url` saved as `name` in `directory`: the unfinished one from an earlier
    /// run (marked running, with its resume data), or a new one.
    func entry(url: URL, headers: HTTPHeaders, directory: URL, name: String, checksum: ExpectedChecksum?, useContentDisposition: Bool, among unfinished: [TaskRecord]) throws(QueueError) -> Entry {
        if let record = unfinished.first(where: { Self.matches($0, url: url, directory: directory, name: name) }) {
            if record.state == .paused || record.state == .failed { try journal.updateState(record.id, to: .queued) }
            try journal.updateState(record.id, to: .running)
            return Entry(id: record.id, resume: record.resume.resumeData)
        }
        let spec = TaskSpec(
            urls: [try TransferURL(validating: url.absoluteString)],
            headers: try headers.map { field throws(QueueError) in try HeaderField(name: field.name, value: field.value) },
            destinationDirectory: directory.path,
            requestedName: name,
            checksum: try checksum.map { value throws(QueueError) in try Checksum(parsing: value.description) },
            useContentDisposition: useContentDisposition
        )
        let id = try journal.insert(NewTask(spec: spec))
        try journal.updateState(id, to: .running)
        return Entry(id: id, resume: nil)
    }

    /// The mark of task `id`'s files (this journal's identity and the task's id, as the
    /// queue's `ResumableDownloadDelegateFactory.commitMark(for:)`); `nil` when the identity
    /// cannot be read.
    func owner(of id: TaskID) -> CommitMark? {
        identity.map { CommitMark(value: "\($0)-\(id.rawValue)") }
    }

    /// Stores a checkpoint (best effort: a journal that cannot be written must not stop the bytes).
    func checkpoint(_ id: TaskID, _ data: ResumeData) {
        try? journal.recordCheckpoint(id, ResumeRecord(data))
    }

    /// Records the end of a download: done with its final path, failed with its error, or
    /// paused when it was interrupted.
    func finish(_ id: TaskID, outcome: Result<TransferResult, FerryError>) {
        switch outcome {
        case .success(let result):
            if let path = result.fileURL?.path {
                try? journal.recordFinalPath(id, path)
                if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                   let size = (attributes[.size] as? NSNumber)?.int64Value {
                    try? journal.recordLength(id, size)
                }
            }
            try? journal.updateState(id, to: .done)
        case .failure(.cancelled):
            try? journal.updateState(id, to: .paused)
        case .failure(let error):
            try? journal.recordAttempt(id, error: error.description)
            try? journal.updateState(id, to: .failed)
        }
    }

    /// Marks interrupted downloads paused and closes the journal; the lock goes with the process.
    func pause(_ ids: [TaskID]) {
        for id in ids { try? journal.updateState(id, to: .paused) }
        close()
    }

    /// Closes the journal and releases the engine lock.
    func close() {
        try? journal.close()
        lock.release()
    }

    static func matches(_ record: TaskRecord, url: URL, directory: URL, name: String) -> Bool {
        record.spec.urls.first?.string == url.absoluteString && record.spec.destinationDirectory == directory.path && record.spec.requestedName == name
    }
}
