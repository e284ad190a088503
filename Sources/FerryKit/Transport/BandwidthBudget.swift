/// `BandwidthBudget` shares an engine's ``OverallLimits`` among its running transfers.
///
/// Every running transfer is a member from its start to its end. While a budget is set, the
/// budget is split (`FairShare`) every ``interval`` and whenever a transfer starts or ends,
/// and each member's pacers get their shares (`EasyHandle.applyShares`). A member whose
/// pacer did not hold it back in the last interval is held back by its server: it is given
/// what it moved plus half (at least ``minimumDemand``), and the others share the rest.
///
/// Owned by the engine and used on the engine thread only.
final class BandwidthBudget {
    /// Seconds between two splits while a budget is set.
    static let interval = 0.25
    /// The least a transfer held back by its server is offered (bytes per second), so that it
    /// can show it wants more.
    static let minimumDemand: Int64 = 16 * 1024

    private struct Member {
        let handle: EasyHandle
        var received: Int64
        var sent: Int64
        var downloadDemand: Int64?
        var uploadDemand: Int64?
        /// When it joined (its first interval is measured from then).
        let joined: Double
    }

    private(set) var limits: OverallLimits
    /// Times the splits; the pacers keep their sessions' clocks.
    private let clock = SystemClock()
    private var members: [Int: Member] = [:]
    private var lastSplit = -Double.infinity
    private var lastMeasure = -Double.infinity

    init(limits: OverallLimits) {
        self.limits = limits
    }

    /// The running transfers.
    var handles: [EasyHandle] { members.values.map(\.handle) }

    /// The share of the download budget a transfer starting now is likely to get, to size its
    /// receive buffer by; `nil` without a download budget. Assumes at least four transfers, so
    /// that a transfer's reads stay small when others join it.
    var startingShare: Int64? {
        limits.download.map { max(1, $0 / Int64(max(4, members.count + 1))) }
    }

    /// `add(_:)` makes a transfer that just started a member (it wants as much as it can get).
    func add(_ handle: EasyHandle) {
        members[handle.task.id] = Member(handle: handle, received: handle.bodyBytesReceived, sent: handle.bytesSent,
                                         joined: clock.now())
        if limits.isLimiting { split() }
    }

    /// `remove(_:)` lets the others share what a transfer that ended had.
    func remove(_ id: Int) {
        guard members.removeValue(forKey: id) != nil else { return }
        if limits.isLimiting { split() }
    }

    /// `setLimits(_:)` makes `limits` the budgets from now on.
    func setLimits(_ limits: OverallLimits) {
        self.limits = limits
        split()
    }

    /// `capChanged()` splits again after a member's own cap changed.
    func capChanged() {
        split()
    }

    /// `tick()` splits the budget again once ``interval`` passed, and returns the seconds
    /// until the next split (`nil` when none is due: no budget or no transfer).
    func tick() -> Double? {
        guard limits.isLimiting, !members.isEmpty else { return nil }
        let now = clock.now()
        if now - lastSplit >= Self.interval {
            measure(now: now)
            split()
        }
        return max(0.001, lastSplit + Self.interval - now)
    }

    /// `measure(now:)` estimates from the last interval what each member wants.
    private func measure(now: Double) {
        let since = lastMeasure
        let elapsed = now - since
        lastMeasure = now
        guard elapsed.isFinite, elapsed > 0 else {
            for (id, member) in members {
                members[id]?.received = member.handle.bodyBytesReceived
                members[id]?.sent = member.handle.bytesSent
                _ = member.handle.takeLimitedFlags()
            }
            return
        }
        for (id, var member) in members {
            // A member that joined during the interval is measured from its start; one that
            // moved no byte yet (connecting) is taken to want as much as it can get.
            let handle = member.handle
            let span = max(0.01, now - max(since, member.joined))
            let (receiveLimited, sendLimited) = handle.takeLimitedFlags()
            let received = handle.bodyBytesReceived
            let sent = handle.bytesSent
            member.downloadDemand = receiveLimited || received == 0 ? nil : Self.demand(moved: received - member.received, elapsed: span)
            member.uploadDemand = sendLimited || sent == 0 ? nil : Self.demand(moved: sent - member.sent, elapsed: span)
            member.received = received
            member.sent = sent
            members[id] = member
        }
    }

    private static func demand(moved: Int64, elapsed: Double) -> Int64 {
        max(minimumDemand, Int64((Double(max(0, moved)) / elapsed * 1.5).rounded()))
    }

    /// `split()` gives every member its shares of the budgets now.
    private func split() {
        lastSplit = clock.now()
        let ids = Array(members.keys)
        let downloads = limits.download.map { budget in
            FairShare.shares(budget: budget, wants: ids.map { FairShare.Want(cap: members[$0]?.handle.receiveCap, demand: members[$0]?.downloadDemand) })
        }
        let uploads = limits.upload.map { budget in
            FairShare.shares(budget: budget, wants: ids.map { FairShare.Want(demand: members[$0]?.uploadDemand) })
        }
        for (position, id) in ids.enumerated() {
            members[id]?.handle.applyShares(download: downloads?[position], upload: uploads?[position], now: members[id]?.handle.clockNow ?? 0)
        }
    }
}
