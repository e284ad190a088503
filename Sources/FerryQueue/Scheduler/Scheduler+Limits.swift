import FerryKit

/// Limits changed while the queue runs (the TUI, the daemon): the scheduler's own and those
/// of the session it hands transfers to.
extension Scheduler {
    /// `setLimits(maximumConcurrent:maximumPerHost:)` changes the limits at once, whether the
    /// queue runs or not; `nil` keeps a value (callers reject values below 1; they count as 1).
    /// Raising starts more tasks right away. Lowering stops no transfer, but none starts until
    /// fewer run than the new limit: the tasks handed to the session ahead of need that it
    /// has not started are taken back (`takeBackHandedAhead()`) and chosen again under the new
    /// limits. `configuration` shows the limits in force.
    public func setLimits(maximumConcurrent: Int? = nil, maximumPerHost: Int? = nil) async {
        let before = (concurrent: configuration.maximumConcurrent, perHost: configuration.maximumPerHost)
        if let maximumConcurrent { configuration.maximumConcurrent = max(1, maximumConcurrent) }
        if let maximumPerHost { configuration.maximumPerHost = max(1, maximumPerHost) }
        let after = (concurrent: configuration.maximumConcurrent, perHost: configuration.maximumPerHost)
        guard after != before else { return }
        if stagesTransfers {
            // The session holds back what the scheduler hands it ahead of need: its limits follow.
            await mainLane.session.setLimits(maximumActiveTransfers: after.concurrent,
                                             maximumActiveTransfersPerHost: after.perHost)
        }
        if after.concurrent < before.concurrent || after.perHost < before.perHost {
            takeBackHandedAhead()
        }
        fill()
    }
}
