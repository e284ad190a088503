import Foundation

/// `TaskRecord` is a task as stored in the journal: its spec, state, place and progress.
public struct TaskRecord: Sendable, Hashable, CustomStringConvertible {
    /// `id` identifies the task.
    public var id: TaskID
    /// `spec` is what the user asked for.
    public var spec: TaskSpec
    /// `state` is where the task stands.
    public var state: TaskState
    /// `priority` orders the queue, higher first.
    public var priority: Int
    /// `position` orders tasks of equal priority, lower first; unique across the journal.
    public var position: Int64
    /// `attempts` counts the transfer attempts made so far.
    public var attempts: Int
    /// `lastError` is the message of the last failed attempt (already masked); `nil` if none.
    public var lastError: String?
    /// `finalPath` is the file the download was resolved to; `nil` until resolved.
    public var finalPath: String?
    /// `resume` is what a download needs to resume.
    public var resume: ResumeRecord
    /// `createdAt` is when the task was inserted.
    public var createdAt: Date
    /// `updatedAt` is when the task row last changed (checkpoints included).
    public var updatedAt: Date
    /// `startedAt` is when the task last went `running` or was last handed to an engine (which
    /// holds it `queued` until its transfer starts); `nil` if never.
    public var startedAt: Date?
    /// `finishedAt` is when the task last reached `done`, `failed` or `cancelled`; `nil` if never.
    public var finishedAt: Date?
    /// `reply` summarises the server's reply to an upload (status and the start of the body);
    /// `nil` for downloads and unfinished uploads.
    public var reply: String? = nil
    /// `fileName` is the name a download writes in its directory (its `.part` is
    /// `fileName.part`), recorded the first time it starts and kept from then on; `nil` until
    /// then, and for uploads.
    public var fileName: String? = nil
    /// `savedFile` is the finished download's file as Ferry named it (its modification time
    /// and inode; its length is `resume.totalLength`); `nil` before, and for journals older
    /// than the record.
    public var savedFile: SavedFile? = nil

    /// `kind` is the spec's kind.
    public var kind: TransferKind { spec.kind }

    /// `description` is a one-line summary with masked URLs and headers.
    public var description: String {
        "#\(id) \(state) \(spec)"
    }
}
