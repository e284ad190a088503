import Glibc
import Synchronization

/// `NetworkMonitor` says whether the network is reachable: AFNetworkReachabilityManager's role
/// on Linux, from an rtnetlink socket (no privilege needed, no traffic sent).
///
/// It reads every interface and route once, then follows the kernel's notifications of link,
/// address and route changes. The network is reachable when a default route (IPv4 or IPv6, main
/// table) leaves through an interface that is up and running (`RoutingState`). A new status is
/// reported once it has held for `Configuration.settleDelay`; the first one at once. A suspend
/// and wake or a step of the wall clock (`ClockJumpDetector`), an overrun of the socket, or an
/// interface going down or up makes it read everything again.
///
/// Two ways to run it:
/// - In another thread's poll loop: poll `fileDescriptor` for reading, call `handleReadable()`
///   when it is readable and `handleTimeout()` once `timeout` has passed. That thread drives the
///   monitor; call these from it only.
/// - On a thread of its own: `start(handler:)`; `stop()` ends it.
/// Either way `status` and `statuses()` may be used from any thread, and handlers and streams get
/// every reported status in order.
///
/// Where netlink is unavailable (the socket cannot be made), `status` stays `.unknown`,
/// `unavailableReason` says why and `fileDescriptor` is -1: the caller falls back to retries.
///
/// Treat `.unknown` like `.reachable`: try, and let retries decide (reachability is a hint to
/// wait and to resume, not a gate in front of every request).
///
/// ```swift
/// let monitor = NetworkMonitor()
/// monitor.start { status in queue.networkChanged(status) }  // on ferry-netmon
/// // or, from a task: for await status in monitor.statuses() { ... }
/// ```
///
/// Threads: all mutable state sits in one `Mutex`; handlers run on the thread that drives the
/// monitor, never with the lock held.
public final class NetworkMonitor: Sendable {
    /// `configuration` is the monitor's settings.
    public let configuration: Configuration
    private let socket: NetlinkSocket?
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var tracker: ReachabilityTracker
        var buffer: [UInt8]
        var failure: NetlinkUnavailable?
        var handler: (@Sendable (NetworkStatus) -> Void)?
        var streams: [Int: AsyncStream<NetworkStatus>.Continuation] = [:]
        var nextStreamID = 0
        var thread = ThreadState.notStarted
        /// The write end of the own thread's wake-up pipe, -1 when there is none.
        var wakeupDescriptor: Int32 = -1
        var stopped = false
    }

    private enum ThreadState {
        case notStarted, running, ended
    }

    /// `receiveBufferSize` is the size of the buffer one datagram is read into.
    static let receiveBufferSize = 64 * 1024
    /// `datagramsPerCall` bounds the datagrams one `handleReadable()` reads: a flood of changes
    /// cannot keep the calling thread; the descriptor stays readable for the next round.
    static let datagramsPerCall = 256

    /// `init(configuration:)` opens the socket and asks for the first dump; it never fails (see
    /// `unavailableReason`).
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, socket: NetlinkSocket.open(groups: Netlink.monitoredGroups))
    }

    init(configuration: Configuration, socket: Result<NetlinkSocket, NetlinkUnavailable>) {
        self.configuration = configuration
        let port: UInt32
        var failure: NetlinkUnavailable?
        switch socket {
        case .success(let opened):
            self.socket = opened
            port = opened.port
        case .failure(let reason):
            self.socket = nil
            port = 0
            failure = reason
        }
        let tracker = ReachabilityTracker(settings: configuration.trackerSettings, port: port)
        state = Mutex(State(tracker: tracker, buffer: [UInt8](repeating: 0, count: Self.receiveBufferSize), failure: failure))
        if self.socket != nil {
            let reports = state.withLock { state in
                let now = configuration.clock()
                return perform(state.tracker.start(at: now), now: now, in: &state)
            }
            deliver(reports)
        }
    }

    /// `status` is the last status reported (`.unknown` until the first dump is read).
    public var status: NetworkStatus {
        state.withLock { $0.tracker.reported }
    }

    /// `unavailableReason` says why the monitor cannot work (no netlink socket, or it failed);
    /// `nil` while it works.
    public var unavailableReason: String? {
        state.withLock { $0.failure?.description }
    }

    /// `fileDescriptor` is the netlink socket, for a poll loop (readable: call
    /// `handleReadable()`); -1 when the monitor is unavailable.
    public var fileDescriptor: Int32 {
        state.withLock { $0.failure == nil ? socket?.descriptor ?? -1 : -1 }
    }

    /// `timeout` is how long a poll loop may sleep before calling `handleTimeout()` (a status
    /// settling, a dump to retry, the next clock check); `nil` when nothing is pending.
    public var timeout: Duration? {
        let deadline = state.withLock { $0.failure == nil ? $0.tracker.nextDeadline : nil }
        guard let deadline else { return nil }
        let seconds = max(0, deadline - configuration.clock().monotonic)
        return .nanoseconds(Int64((seconds * 1_000_000_000).rounded(.up)))
    }

    /// `handleReadable()` reads the pending messages without blocking and runs what is due;
    /// returns the status reported by this call, if any.
    @discardableResult
    public func handleReadable() -> NetworkStatus? {
        guard let socket else { return nil }
        let reports = state.withLock { state -> [Report] in
            guard state.failure == nil else { return [] }
            var reports: [Report] = []
            for _ in 0..<Self.datagramsPerCall {
                let now = configuration.clock()
                let received = state.buffer.withUnsafeMutableBytes { socket.receive(into: $0) }
                switch received {
                case .nothing:
                    return reports + perform(state.tracker.tick(at: now), now: now, in: &state)
                case .datagram(let count, let sender):
                    guard sender == 0 else { continue }  // only the kernel speaks for the network
                    let messages = state.buffer.withUnsafeBytes { NetlinkParser.messages(in: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    reports += perform(state.tracker.receive(messages, at: now), now: now, in: &state)
                case .truncated, .overrun:
                    reports += perform(state.tracker.recheck(at: now), now: now, in: &state)
                case .failed(let code):
                    return reports + fail(NetlinkUnavailable(operation: "recv", code: code), in: &state)
                }
            }
            return reports
        }
        return deliver(reports)
    }

    /// `handleTimeout()` runs what is due (see `timeout`); returns the status reported by this
    /// call, if any.
    @discardableResult
    public func handleTimeout() -> NetworkStatus? {
        guard socket != nil else { return nil }
        let reports = state.withLock { state -> [Report] in
            guard state.failure == nil else { return [] }
            let now = configuration.clock()
            return perform(state.tracker.tick(at: now), now: now, in: &state)
        }
        return deliver(reports)
    }

    /// `recheck()` reads every interface and route again (for instance when transfers fail in a
    /// way that hints at the network); the outcome is reported as usual.
    public func recheck() {
        guard socket != nil else { return }
        let reports = state.withLock { state -> [Report] in
            guard state.failure == nil else { return [] }
            let now = configuration.clock()
            return perform(state.tracker.recheck(at: now), now: now, in: &state)
        }
        deliver(reports)
    }

    /// `statuses()` is a stream of the current status, then every status reported. It ends
    /// after `stop()`, and at once (after `.unknown`) when the monitor is unavailable.
    public func statuses() -> AsyncStream<NetworkStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkStatus.self, bufferingPolicy: .bufferingNewest(16))
        let id = state.withLock { state -> Int? in
            continuation.yield(state.tracker.reported)
            guard state.failure == nil, !state.stopped else { return nil }
            state.nextStreamID += 1
            state.streams[state.nextStreamID] = continuation
            return state.nextStreamID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: - Carrying out the tracker's actions

    /// `Report` is a status and who is to hear of it, gathered with the lock held and delivered
    /// without it.
    private struct Report {
        var status: NetworkStatus
        var handler: (@Sendable (NetworkStatus) -> Void)?
        var streams: [AsyncStream<NetworkStatus>.Continuation]
    }

    private func perform(_ actions: [ReachabilityTracker.Action], now: ClockReadings, in state: inout State) -> [Report] {
        var reports: [Report] = []
        for action in actions {
            switch action {
            case .send(let dump, let sequence):
                if let socket, socket.send(NetlinkRequest.bytes(for: dump, sequence: sequence)) != nil {
                    state.tracker.dumpFailed(at: now)
                }
            case .report(let status):
                reports.append(Report(status: status, handler: state.handler, streams: Array(state.streams.values)))
            }
        }
        return reports
    }

    private func fail(_ failure: NetlinkUnavailable, in state: inout State) -> [Report] {
        state.failure = failure
        state.tracker = ReachabilityTracker(settings: configuration.trackerSettings, port: 0)
        return [Report(status: .unknown, handler: state.handler, streams: Array(state.streams.values))]
    }

    @discardableResult
    private func deliver(_ reports: [Report]) -> NetworkStatus? {
        for report in reports {
            report.handler?(report.status)
            for stream in report.streams {
                stream.yield(report.status)
            }
        }
        return reports.last?.status
    }

    // MARK: - The own thread (NetworkMonitor+Thread)

    /// `socketDescriptorForThread` is the socket for a new own thread; `nil` when unavailable,
    /// stopped or already started.
    var socketDescriptorForThread: Int32? {
        state.withLock { state in
            state.failure == nil && !state.stopped && state.thread == .notStarted ? socket?.descriptor : nil
        }
    }

    /// `beginThread(handler:wakeupDescriptor:)` records the own thread as running; false when
    /// another call got there first or the monitor was stopped.
    func beginThread(handler: (@Sendable (NetworkStatus) -> Void)?, wakeupDescriptor: Int32) -> Bool {
        state.withLock { state in
            guard state.thread == .notStarted, !state.stopped else { return false }
            state.thread = .running
            state.handler = handler
            state.wakeupDescriptor = wakeupDescriptor
            return true
        }
    }

    /// `isStopped` is true once `stop()` was called.
    var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// `endStreamsAndWakeThread()` marks the monitor stopped, wakes its thread and finishes the
    /// streams.
    func endStreamsAndWakeThread() {
        let streams = state.withLock { state in
            state.stopped = true
            state.handler = nil
            if state.wakeupDescriptor >= 0 {
                var byte: UInt8 = 1
                _ = write(state.wakeupDescriptor, &byte, 1)
            }
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams {
            stream.finish()
        }
    }

    /// `threadEnded()` is the own thread's last call: it closes the wake-up pipe's write end.
    func threadEnded() {
        state.withLock { state in
            state.thread = .ended
            if state.wakeupDescriptor >= 0 {
                close(state.wakeupDescriptor)
                state.wakeupDescriptor = -1
            }
        }
    }
}
