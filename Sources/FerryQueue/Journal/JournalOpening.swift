/// `JournalOpening` is the result of `Journal.open(at:onCorruption:now:)`: the journal, and
/// what recovery was needed to get it.
public struct JournalOpening: Sendable {
    /// `journal` is open and migrated to the current schema.
    public let journal: Journal
    /// `recovery` is set when an unreadable journal was moved aside; `nil` otherwise.
    public let recovery: JournalRecovery?
    /// `setAside` are the journals moved aside earlier that are still in the directory
    /// (`journal.sqlite.corrupt-*`, sorted), this opening's own included; empty when none.
    public let setAside: [String]

    public init(journal: Journal, recovery: JournalRecovery?, setAside: [String] = []) {
        self.journal = journal
        self.recovery = recovery
        self.setAside = setAside
    }

    /// `message` is what to tell the user; `nil` when there is nothing to say. After a
    /// recovery it is the recovery's message. Otherwise, as long as a journal set aside
    /// earlier is still there, every opening mentions it, until the user deletes it: it may
    /// hold tasks that could not be recovered, and Ferry never deletes it itself.
    public var message: String? {
        if let recovery { return recovery.message }
        guard let first = setAside.first else { return nil }
        if setAside.count == 1 {
            return "an older journal was set aside at \(first) (damaged); delete it when you no longer need it"
        }
        return "\(setAside.count) older journals were set aside (damaged), the first at \(first); "
            + "delete them when you no longer need them"
    }
}
