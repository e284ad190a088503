import FerryKit

/// Waiting for the network: with a `NetworkMonitor` followed, a scheduler stops its transfers
/// when no route is left (checkpointed, their tasks queued, no retry spent), starts nothing
/// until a route returns, then resumes them (with If-Range, as every resume). Without a
/// monitor, or where netlink is unavailable (the status stays unknown), failures are retried
/// as before.
extension Scheduler {
    /// `isWaitingForNetwork` is true while the followed monitor says no route is left.
    public var isWaitingForNetwork: Bool { networkOffline }

    /// `follow(_:)` acts on every status `monitor` reports from now on (the current one first),
    /// until the scheduler goes away.
    public func follow(_ monitor: NetworkMonitor) {
        networkWatch?.cancel()
        let statuses = monitor.statuses()
        networkOffline = false
        try? journal.setNetworkOffline(false)
        networkChanged(monitor.status)
        networkWatch = Task { [weak self] in
            for await status in statuses {
                guard let self else { return }
                await self.networkChanged(status)
            }
        }
    }

    /// `networkChanged(_:)` stops every transfer and waits when no route is left; starts
    /// the waiting tasks again when one returns (`unknown` counts as a route: retries decide).
    public func networkChanged(_ status: NetworkStatus) {
        let offline = status == .notReachable
        guard offline != networkOffline else { return }
        networkOffline = offline
        try? journal.setNetworkOffline(offline)
        hub.publish(.journalChanged)
        if offline {
            // Failed attempts waiting for their retry were most likely the network going:
            // they wait for it too, their failures forgotten.
            for (id, timer) in retryTimers {
                timer.cancel()
                attempts.forgetRetries(of: id)
            }
            retryTimers.removeAll()
            for (id, entry) in running where entry.intent == nil && !entry.finishing && !Scheduler.isLoopback(hostKey: entry.hostKey) {
                interrupt(id, intent: .requeue)
            }
        } else {
            dropUpcoming()
            fill()
        }
        finishIfIdle()
    }

    /// `isLoopback(hostKey:)` is true for a server on this machine (`127.0.0.0/8`, `::1`,
    /// `localhost`), reached without any route: its transfers never wait for the network.
    static func isLoopback(hostKey: String) -> Bool {
        var host = Substring(hostKey)
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
            return host == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        return host == "localhost" || host.hasPrefix("127.")
    }

    /// `isNetworkFailure(_:)` is true for an outcome a lost network explains: no connection,
    /// no name resolution, a dropped or stalled transfer.
    static func isNetworkFailure(_ outcome: Result<TransferResult, FerryError>) -> Bool {
        guard case .failure(.transport(let reason)) = outcome else { return false }
        switch reason {
        case .couldNotResolveHost, .couldNotConnect, .timedOut, .stalled, .connectionDropped: return true
        default: return false
        }
    }
}
