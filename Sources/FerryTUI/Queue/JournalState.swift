import FerryQueue

/// `JournalState` is the journal's task state (`FerryQueue.TaskState`), named apart from
/// the front end's own `TaskState`.
public typealias JournalState = FerryQueue::TaskState
