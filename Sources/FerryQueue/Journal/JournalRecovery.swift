/// `JournalRecovery` reports that an unreadable journal was moved aside and replaced, and
/// what of it was salvaged (`JournalSalvage`).
public struct JournalRecovery: Sendable, Hashable {
    /// `movedAsideTo` is where the old journal now is (`journal.sqlite.corrupt-<UTC time>`);
    /// its `-wal` and `-shm` files, if any, sit beside it with the same suffixes.
    public let movedAsideTo: String
    /// `detail` is what was wrong, as SQLite or the header check put it.
    public let detail: String
    /// `recoveredTasks` is the number of tasks copied from the old journal into the new one;
    /// `0` by default.
    public let recoveredTasks: Int
    /// `pausedTasks` is how many of the recovered tasks were paused because some of their
    /// mirrors, headers or form may be missing; `0` by default.
    public let pausedTasks: Int
    /// `lostSome` is true when some of the old journal could not be read or a task read
    /// from it was left out; `false` by default.
    public let lostSome: Bool

    public init(movedAsideTo: String, detail: String, recoveredTasks: Int = 0, pausedTasks: Int = 0, lostSome: Bool = false) {
        self.movedAsideTo = movedAsideTo
        self.detail = detail
        self.recoveredTasks = recoveredTasks
        self.pausedTasks = pausedTasks
        self.lostSome = lostSome
    }

    /// `message` tells the user what happened, for example "journal was damaged; moved aside
    /// to /home/me/.local/state/ferry/journal.sqlite.corrupt-20250102T030405Z; 37 tasks
    /// recovered into a new journal (the rest could not be read); 2 of them paused: their
    /// mirrors, headers or form may be incomplete", or "journal was unreadable;
    /// moved aside to ...; starting with an empty queue" when nothing could be recovered.
    public var message: String {
        guard recoveredTasks > 0 else {
            return "journal was unreadable; moved aside to \(movedAsideTo); starting with an empty queue"
        }
        let tasks = recoveredTasks == 1 ? "1 task" : "\(recoveredTasks) tasks"
        let rest = lostSome ? " (the rest could not be read)" : ""
        let paused = pausedTasks == 0 ? ""
            : "; \(pausedTasks) of them paused: their mirrors, headers or form may be incomplete"
        return "journal was damaged; moved aside to \(movedAsideTo); \(tasks) recovered into a new journal\(rest)\(paused)"
    }
}
