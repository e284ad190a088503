import FerryKit

/// `DownloadDelegateFactory` makes the `TaskDelegate` of each download attempt the
/// `Scheduler` starts, so another delegate (a resuming, checkpointing one) plugs in without
/// touching the scheduling.
public protocol DownloadDelegateFactory: Sendable {
    /// `verifiesChecksum` is true when the delegates check `TaskSpec.checksum` themselves
    /// before the file takes its final name; otherwise the scheduler checks the finished
    /// file. `false` by default.
    var verifiesChecksum: Bool { get }

    /// `makeDelegate(for:destination:)` returns the delegate for one attempt of `record`,
    /// writing to `destination`.
    func makeDelegate(for record: TaskRecord, destination: DownloadDestination) -> any TaskDelegate

    /// `commitMark(for:)` is the `CommitMark` the delegates give a task's files written without
    /// a `.part`; `nil` (the default) when they never do.
    func commitMark(for id: TaskID) -> CommitMark?
}

extension DownloadDelegateFactory {
    /// `verifiesChecksum` is `false` unless a factory says otherwise.
    public var verifiesChecksum: Bool { false }

    /// `commitMark(for:)` is `nil` unless a factory says otherwise.
    public func commitMark(for id: TaskID) -> CommitMark? { nil }
}

/// `RestartingDownloadDelegateFactory` makes FerryKit's `DownloadTaskDelegate`, which starts
/// every attempt from byte zero; the default until resumable delegates exist.
public struct RestartingDownloadDelegateFactory: DownloadDelegateFactory {
    /// `init()` makes the factory.
    public init() {}

    /// `makeDelegate(for:destination:)` returns a `DownloadTaskDelegate(destination:)`.
    public func makeDelegate(for record: TaskRecord, destination: DownloadDestination) -> any TaskDelegate {
        DownloadTaskDelegate(destination: destination)
    }
}
