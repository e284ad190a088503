import FerryKit

extension Scheduler {
    /// `optionsChanged(_:)` tells the scheduler that the rows of `ids` changed how they run
    /// (directory, name, headers, connections): those it handed to the session ahead of need
    /// and the session has not started are taken back, as `takeBackHandedAhead()` takes back
    /// all of them, so that they start from their new rows; a started transfer keeps what it
    /// started with until its next attempt.
    public func optionsChanged(_ ids: [TaskID]) {
        for id in ids {
            guard let entry = running[id], entry.intent == nil, !entry.finishing, !entry.transfer.hasStarted else { continue }
            takingBack.insert(id)
            interrupt(id, intent: .requeue)
        }
        journalDidChange()
    }
}
