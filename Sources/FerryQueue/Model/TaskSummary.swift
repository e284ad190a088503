/// `TaskSummary` is the part of a task a list view needs to count, order and filter it without
/// loading it: its state, place in the queue and progress, and (when asked) what its name is
/// made of. `Journal.forEachSummary(labels:_:)` reads them for every task, a few integers each.
public struct TaskSummary: Sendable, Hashable {
    /// `id` identifies the task.
    public var id: TaskID
    /// `kind` says whether the task downloads or uploads.
    public var kind: TransferKind
    /// `state` is where the task stands.
    public var state: TaskState
    /// `priority` and `position` are the task's place in the queue (see `TaskRecord`).
    public var priority: Int
    public var position: Int64
    /// `totalLength` is the download's expected size, `nil` while unknown.
    public var totalLength: Int64? = nil
    /// `durableOffset` is how many bytes of the download are safely on disk.
    public var durableOffset: Int64 = 0
    /// `label` is what the task's name and file are made of; `nil` unless asked for.
    public var label: TaskLabel? = nil
}

/// `TaskLabel` is what a task's shown name and local file are made of: for a download the
/// resolved file, else the directory and the requested name, else the first URL; for an upload
/// the files it sends.
public struct TaskLabel: Sendable, Hashable {
    /// `destinationDirectory` is the download's directory, `nil` for the working directory.
    public var destinationDirectory: String? = nil
    /// `requestedName` is the file name the user asked for, `nil` if none.
    public var requestedName: String? = nil
    /// `finalPath` is the file the download was resolved to, `nil` until resolved.
    public var finalPath: String? = nil
    /// `fileName` is the name the download writes in its directory (`NAME.1.ext` when the
    /// name was taken), recorded when it first starts; `nil` before.
    public var fileName: String? = nil
    /// `firstURL` is the task's first URL, `nil` if it has none.
    public var firstURL: TransferURL? = nil
    /// `uploadPaths` are the paths of an upload's files, in order; empty for a download.
    public var uploadPaths: [String] = []
    /// `uploadNames` are the names an upload's files are sent as (the path when no name was
    /// given), in the order of `uploadPaths`.
    public var uploadNames: [String] = []
    /// `uploadBodyFile` is the file an upload sends as its whole body, `nil` if none.
    public var uploadBodyFile: String? = nil
}

extension TaskLabel {
    /// `init(_:)` is the label of a loaded task.
    public init(_ record: TaskRecord) {
        let spec = record.spec
        let files = spec.upload?.files ?? []
        self.init(
            destinationDirectory: spec.destinationDirectory,
            requestedName: spec.requestedName,
            finalPath: record.finalPath,
            fileName: record.fileName,
            firstURL: spec.urls.first,
            uploadPaths: files.map(\.path),
            uploadNames: files.map { $0.filename ?? $0.path },
            uploadBodyFile: spec.upload?.bodyFile)
    }
}

extension TaskLabel {
    /// `savedName` is the name of a download's file as every view shows it: the resolved
    /// file's, else the name it writes (recorded when it started), else the requested one;
    /// `nil` while none is known (the URL or the server then names it).
    public var savedName: String? {
        if let finalPath { return finalPath.split(separator: "/").last.map(String.init) ?? finalPath }
        if let fileName, !fileName.isEmpty { return fileName }
        if let requestedName, !requestedName.isEmpty { return requestedName }
        return nil
    }
}
