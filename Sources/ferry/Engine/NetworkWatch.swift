import FerryKit
import FerryQueue

/// `NetworkWatch` runs a `NetworkMonitor` for an engine's scheduler: while no route is left,
/// its transfers wait instead of failing (`Scheduler.follow(_:)`). Where netlink is
/// unavailable the status stays unknown and failures are retried as before.
/// `FERRY_NETWORK_MONITOR=0` in the environment leaves the monitor out.
enum NetworkWatch {
    /// `start(for:)` starts the monitor on its own thread and has `scheduler` follow it;
    /// `nil` when it is turned off. Stop it (`NetworkMonitor.stop()`) when the engine ends.
    static func start(for scheduler: Scheduler, environment: [String: String]) async -> NetworkMonitor? {
        guard environment["FERRY_NETWORK_MONITOR"] != "0" else { return nil }
        let monitor = NetworkMonitor()
        monitor.start()
        await scheduler.follow(monitor)
        return monitor
    }
}
