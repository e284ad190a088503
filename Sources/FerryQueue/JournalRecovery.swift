/// `JournalRecovery` reports that an unreadable journal was moved aside and replaced.
public struct JournalRecovery: Sendable, Hashable {
    /// `movedAsideTo` is where the old journal now is (`journal.sqlite.corrupt-<UTC time>`);
    /// its `-wal` and `-shm` files, if any, sit beside it with the same suffixes.
    public let movedAsideTo: String
    /// `detail` is what was wrong, as SQLite or the header check put it.
    public let detail: String

    /// `message` tells the user what happened, for example "journal was unreadable; moved
    /// aside to /home/me/.local/state/ferry/journal.sqlite.corrupt-20250102T030405Z;
    /// starting with an empty queue".
    public var message: String {
        "journal was unreadable; moved aside to \(movedAsideTo); starting with an empty queue"
    }
}
