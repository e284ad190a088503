import GRDB

extension Journal {
    /// `revision()` is a counter that grows with every change to the queue (insert, state,
    /// order, priority, removal, attempts), from this process or another one.
    ///
    /// Progress checkpoints do not change it. Polling it is one indexed read of one row, so
    /// the engine can call it every second to notice `ferry add` from another shell.
    public func revision() throws(QueueError) -> Int64 {
        try read { db in try JournalMeta.value(db, .revision) }
    }
}
