import FerryKit

/// `NewTask` is a task about to be inserted into the journal: a spec plus its queue placement.
public struct NewTask: Sendable, Hashable {
    /// `spec` is what to transfer.
    public var spec: TaskSpec
    /// `priority` orders the queue, higher first; `0` by default.
    public var priority: Int
    /// `startsPaused` inserts the task as `paused` instead of `queued`; `false` by default.
    public var startsPaused: Bool
    /// `pieceHashes` are the digests of the file's pieces (a Metalink's), checked as each
    /// piece completes; `nil` by default.
    public var pieceHashes: PieceHashes?

    /// `init(spec:priority:startsPaused:pieceHashes:)` makes a task to insert.
    public init(spec: TaskSpec, priority: Int = 0, startsPaused: Bool = false, pieceHashes: PieceHashes? = nil) {
        self.spec = spec
        self.priority = priority
        self.startsPaused = startsPaused
        self.pieceHashes = pieceHashes
    }
}
