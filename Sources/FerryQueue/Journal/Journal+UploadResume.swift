import FerryKit
import Foundation
import GRDB

/// The resume data of resumable uploads (`upload_resume`): written before an upload's body
/// bytes go, read by the next run, removed when the upload ends or starts over.
extension Journal {
    /// `uploadResume(key:)` is the resume data kept under `key`, `nil` when there is none (or
    /// it cannot be read: the upload then starts anew, never onto a guess).
    public func uploadResume(key: String) throws(QueueError) -> UploadResumeData? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT data FROM upload_resume WHERE key = ?", arguments: [key])
        }.flatMap(UploadResumeData.decoded)
    }

    /// `saveUploadResume(_:key:task:)` keeps `data` under `key` (in place of what was there),
    /// tied to `task` when it is a queued upload's (removed with the task). A queued upload's
    /// row takes the server's offset and the body's length too, so that a listing of the task
    /// paused shows how far it is, as a download's does.
    public func saveUploadResume(_ data: UploadResumeData, key: String, task: TaskID? = nil) throws(QueueError) {
        let now = timestamp()
        try write { db in
            try db.execute(sql: """
                INSERT INTO upload_resume (key, task_id, data, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET task_id = excluded.task_id, data = excluded.data, updated_at = excluded.updated_at
                """, arguments: [key, task?.rawValue, data.encoded(), now])
            if let task {
                try db.execute(sql: "UPDATE task SET total_length = ?, durable_offset = ? WHERE id = ?",
                               arguments: [data.length, min(data.offset, data.length), task.rawValue])
            }
        }
    }

    /// `clearUploadResume(key:)` forgets the resume data kept under `key`.
    public func clearUploadResume(key: String) throws(QueueError) {
        try write { db in
            try db.execute(sql: "DELETE FROM upload_resume WHERE key = ?", arguments: [key])
        }
    }
}

/// `JournalUploadResumeStore` keeps one upload's resume data in the journal, under its key.
/// A journal write is durable against kill -9 when it returns (WAL, see ``Journal``).
public final class JournalUploadResumeStore: UploadResumeStore {
    private let journal: Journal
    /// `key` names the upload: `task:<id>`, or ``putKey(method:url:body:)``'s digest.
    public let key: String
    private let task: TaskID?

    /// `init(journal:key:task:)` makes the store of the upload named `key`.
    public init(journal: Journal, key: String, task: TaskID? = nil) {
        self.journal = journal
        self.key = key
        self.task = task
    }

    /// `init(journal:task:)` is the store of a queued upload.
    public convenience init(journal: Journal, task: TaskID) {
        self.init(journal: journal, key: Self.taskKey(task), task: task)
    }

    /// `putKey(method:url:body:)` is the key of a `ferry put`: the same method, URL and body
    /// description (the files' paths, the form's fields) name the same upload.
    public static func putKey(method: String, url: String, body: [String]) -> String {
        var hasher = ChecksumHasher(algorithm: .sha256)
        for piece in [method, url] + body {
            hasher.update(Array(piece.utf8) + [0])
        }
        return "put:" + hasher.finalizeHex()
    }

    /// `boundary(forKey:)` is the multipart boundary of a resumable form named `key`: made
    /// from the key, so that every attempt (and every process) sends the same bytes and a
    /// resumed form is the same body.
    public static func boundary(forKey key: String) -> String {
        var hasher = ChecksumHasher(algorithm: .sha256)
        hasher.update(Array(key.utf8))
        return "Boundary+" + hasher.finalizeHex().prefix(16).uppercased()
    }

    /// `taskKey(_:)` is the key of a queued upload's resume data.
    public static func taskKey(_ task: TaskID) -> String {
        "task:\(task.rawValue)"
    }

    public func load() -> UploadResumeData? {
        (try? journal.uploadResume(key: key)) ?? nil
    }

    public func save(_ data: UploadResumeData) throws(FerryError) {
        do throws(QueueError) {
            try journal.saveUploadResume(data, key: key, task: task)
        } catch {
            throw .file(.io(path: journal.path, errno: EIO, operation: "record the upload's resume data (\(error.description))"))
        }
    }

    public func clear() {
        try? journal.clearUploadResume(key: key)
    }
}
