import FerryQueue

/// `TaskRow` is the front end's view of one task: everything the table and the detail pane show.
///
/// The application builds rows from its queue and posts them to an `EventInbox`; the front
/// end never reads the queue directly. Strings are shown as given except that control and
/// bidirectional-override characters are replaced before display, so secrets must already be
/// masked in `urls`, `lastError` and `reply`.
public struct TaskRow: Sendable, Hashable, Identifiable {
    /// `TaskRow.ID` identifies a task for its whole life (the queue's row id).
    public typealias ID = Int64

    /// `id` identifies the task in commands sent back to the application.
    public var id: ID
    /// `kind` says whether the task downloads or uploads.
    public var kind: TaskKind
    /// `name` is the file name shown in the table.
    public var name: String
    /// `state` is the task's life-cycle state.
    public var state: TaskState
    /// `priority` and `position` are the task's place in the queue: higher priorities first,
    /// then lower positions; the queue sort order uses them. `0` by default.
    public var priority: Int
    public var position: Int
    /// `bytesDone` is the number of bytes transferred so far.
    public var bytesDone: Int64
    /// `bytesTotal` is the expected size, `nil` while unknown.
    public var bytesTotal: Int64?
    /// `speed` is the current transfer rate in bytes per second. `0` by default.
    public var speed: Int64
    /// `eta` is the estimated number of seconds left, `nil` while unknown.
    public var eta: Int?
    /// `urls` are the task's URLs with user info and secret query values already masked.
    public var urls: [String]
    /// `destination` is the local file for a download, or the local source files for an upload.
    public var destination: String
    /// `attempts` counts the transfer attempts made so far. `0` by default.
    public var attempts: Int
    /// `lastError` is the last failure, already masked. `nil` by default.
    public var lastError: String?
    /// `validators` are the ETag, Last-Modified and checksum known for the task.
    public var validators: TaskValidators
    /// `reply` summarises the server's reply to an upload (status and body excerpt). `nil` by default.
    public var reply: String?
    /// `connections` is how many connections a running download uses now; `0` by default
    /// (not known, or not running).
    public var connections = 0
    /// `sources` are the sources of a download fetched from several at once, one line each
    /// ("active · 2 connections · 3.1 MB/s · URL", masked); empty for any other.
    public var sources: [String] = []
    /// `doneRanges` are the byte ranges of the file known to be on disk (a split download has
    /// several), for the detail pane's map. Empty by default.
    public var doneRanges: [Range<Int64>] = []
    /// `speedLimit` is the task's own speed cap in bytes per second (`l` changes it); `nil`
    /// (none: only the shared limit applies) by default.
    public var speedLimit: Int64?
    /// `settings` are the task's own trust, login, proxy and cookie settings, secrets masked
    /// (`key=value` lines); empty by default.
    public var settings: [String] = []
    /// `insecure` is true when the task's TLS peers are not checked (`-k`).
    public var insecure = false

    /// `init(id:kind:name:state:...)` makes a row; only the identity, kind, name and state are required.
    public init(
        id: ID,
        kind: TaskKind,
        name: String,
        state: TaskState,
        priority: Int = 0,
        position: Int = 0,
        bytesDone: Int64 = 0,
        bytesTotal: Int64? = nil,
        speed: Int64 = 0,
        eta: Int? = nil,
        urls: [String] = [],
        destination: String = "",
        attempts: Int = 0,
        lastError: String? = nil,
        validators: TaskValidators = TaskValidators(),
        reply: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.state = state
        self.priority = priority
        self.position = position
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.speed = speed
        self.eta = eta
        self.urls = urls
        self.destination = destination
        self.attempts = attempts
        self.lastError = lastError
        self.validators = validators
        self.reply = reply
    }

    /// `fraction` is the completed share in `0...1`, `nil` when the total is unknown
    /// (a done task is complete whatever its size).
    public var fraction: Double? {
        guard let total = bytesTotal else { return state == .done ? 1 : nil }
        guard total > 0 else { return state == .done ? 1 : 0 }
        return min(1, max(0, Double(bytesDone) / Double(total)))
    }
}
