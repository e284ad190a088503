/// `JournalOpening` is the result of `Journal.open(at:onCorruption:now:)`: the journal, and
/// what recovery was needed to get it.
public struct JournalOpening: Sendable {
    /// `journal` is open and migrated to the current schema.
    public let journal: Journal
    /// `recovery` is set when an unreadable journal was moved aside; `nil` otherwise.
    public let recovery: JournalRecovery?

    /// `message` is the recovery message to show the user; `nil` when nothing happened.
    public var message: String? { recovery?.message }
}
