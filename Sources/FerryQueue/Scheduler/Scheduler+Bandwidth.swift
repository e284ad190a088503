import FerryKit

/// Speed limits changed while the queue runs: the engine's budgets (`OverallLimits`, kept in
/// the journal) and the tasks' own caps, applied to running transfers without restarting them.
extension Scheduler {
    /// `overallLimits` are the budgets the scheduler's transfers share now.
    public var overallLimits: OverallLimits { mainLane.session.overallLimits }

    /// `setOverallLimits(download:upload:)` records new budgets in the journal (`nil` keeps
    /// one, `.some(nil)` removes it) and applies them to the running transfers at once.
    public func setOverallLimits(download: Int64?? = nil, upload: Int64?? = nil) async throws(QueueError) {
        try journal.setOverallLimits(download: download, upload: upload)
        let limits = configuration.overallLimits(kept: try journal.overallLimits())
        await mainLane.session.setOverallLimits(limits)
        hub.publish(.journalChanged)
    }

    /// `setMaxDownloadLimit(_:for:)` records a task's own cap and applies it at once when the
    /// task runs.
    public func setMaxDownloadLimit(_ limit: Int64?, for id: TaskID) throws(QueueError) {
        try journal.setMaxDownloadLimit(limit, for: id)
        if let entry = running[id], entry.partPath != nil {
            entry.lane.session.setReceiveSpeedCap(limit, forTask: entry.transfer.id)
        }
    }

    /// `applyJournalLimits()` applies what another process recorded: the budgets, and the own
    /// caps of the running downloads.
    func applyJournalLimits() {
        guard let kept = try? journal.overallLimits() else { return }
        let limits = configuration.overallLimits(kept: kept)
        if limits != mainLane.session.overallLimits {
            mainLane.session.requestOverallLimits(limits)
        }
        let downloads = running.filter { $0.value.partPath != nil && !$0.value.finishing }
        guard let caps = try? journal.maxDownloadLimits(of: downloads.keys) else { return }
        for (id, cap) in caps {
            guard let entry = downloads[id], cap != entry.record.spec.options.maxDownloadLimit || cap != nil else { continue }
            entry.lane.session.setReceiveSpeedCap(cap, forTask: entry.transfer.id)
        }
    }
}
