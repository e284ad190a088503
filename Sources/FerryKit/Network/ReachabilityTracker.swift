/// `ReachabilityTracker` is `NetworkMonitor`'s logic without its socket: it reads the kernel's
/// messages into a `RoutingState`, runs the dumps (interfaces, then routes) that read everything
/// afresh, debounces the status, and watches the clocks for a suspend and wake. It answers with
/// `Action`s for the monitor to carry out. Times are `ClockReadings` passed in, so tests drive
/// it by hand.
struct ReachabilityTracker: Sendable {
    /// `Settings` are the tracker's delays, in seconds.
    struct Settings: Sendable, Equatable {
        /// How long a new status must hold before it is reported.
        var settleDelay: Double
        /// How often the clocks are compared while nothing else happens; `nil` never.
        var clockCheckInterval: Double?
        /// How far the clocks may drift apart between two checks before it counts as a jump.
        var clockJumpTolerance: Double
        /// How long after a refused or unsent dump request the dump is tried again.
        var dumpRetryDelay: Double = 1
        /// How long a dump may take before it is started again.
        var dumpTimeout: Double = 5
    }

    /// `Action` is what the monitor must do.
    enum Action: Sendable, Equatable {
        /// Send a dump request with this sequence number.
        case send(NetlinkRequest.Dump, sequence: UInt32)
        /// Tell the observers about this status.
        case report(NetworkStatus)
    }

    private enum Phase: Sendable {
        case idle
        /// A dump is under way: its replies carry `sequence` and build `building`.
        case dumping(NetlinkRequest.Dump, sequence: UInt32, building: RoutingState, interrupted: Bool, deadline: Double)
        /// A dump failed; the next one starts at `until`.
        case waiting(until: Double)
    }

    let settings: Settings
    /// `port` is the socket's netlink port id: dump replies are addressed to it.
    let port: UInt32
    /// `reported` is the last status reported.
    private(set) var reported: NetworkStatus = .unknown
    /// `routing` is the latest complete picture, kept current by notifications.
    private(set) var routing = RoutingState()
    /// `hasSnapshot` is true once a whole dump has been read.
    private(set) var hasSnapshot = false
    private var phase = Phase.idle
    private var recheckWanted = false
    private var nextSequence: UInt32 = 1
    private var settling: (status: NetworkStatus, deadline: Double)?
    private var clocks: ClockJumpDetector
    private var nextClockCheck: Double?

    init(settings: Settings, port: UInt32) {
        self.settings = settings
        self.port = port
        clocks = ClockJumpDetector(tolerance: settings.clockJumpTolerance)
    }

    /// `isDumping` is true while a dump is under way.
    var isDumping: Bool {
        if case .dumping = phase { return true }
        return false
    }

    /// `start(at:)` begins the first dump.
    mutating func start(at now: ClockReadings) -> [Action] {
        _ = clocks.check(now)
        scheduleClockCheck(after: now)
        return recheck(at: now)
    }

    /// `recheck(at:)` reads everything afresh: at once when no dump runs, else right after it.
    mutating func recheck(at now: ClockReadings) -> [Action] {
        switch phase {
        case .idle, .waiting: return beginDump(.links, building: RoutingState(), at: now)
        case .dumping: recheckWanted = true; return []
        }
    }

    /// `dumpFailed(at:)` is called when a dump request could not be sent: it is tried again
    /// after `dumpRetryDelay`.
    mutating func dumpFailed(at now: ClockReadings) {
        phase = .waiting(until: now.monotonic + settings.dumpRetryDelay)
    }

    /// `receive(_:at:)` takes the messages of one datagram.
    mutating func receive(_ messages: [NetlinkMessage], at now: ClockReadings) -> [Action] {
        var actions: [Action] = []
        var readAgain = false
        for message in messages {
            if message.portID == port && message.sequence != 0 {
                actions += dumpReply(message, at: now)
                continue
            }
            if case .overrun = message.body { readAgain = true }
            if case .dumping(let dump, let sequence, var building, let interrupted, let deadline) = phase {
                building.apply(message)
                phase = .dumping(dump, sequence: sequence, building: building, interrupted: interrupted, deadline: deadline)
            }
            if routing.apply(message) == .interfaceUpChanged { readAgain = true }
        }
        if readAgain { actions += recheck(at: now) }
        return actions + evaluate(at: now) + tick(at: now)
    }

    /// `tick(at:)` runs what is due: a clock check, a dump to retry or restart, a settled status.
    mutating func tick(at now: ClockReadings) -> [Action] {
        var actions: [Action] = []
        if clocks.check(now) {
            actions += recheck(at: now)
        }
        if let due = nextClockCheck, now.monotonic >= due { scheduleClockCheck(after: now) }
        switch phase {
        case .dumping(_, _, _, _, let deadline) where now.monotonic >= deadline:
            actions += beginDump(.links, building: RoutingState(), at: now)
        case .waiting(let until) where now.monotonic >= until:
            actions += beginDump(.links, building: RoutingState(), at: now)
        default:
            break
        }
        if let settling, now.monotonic >= settling.deadline {
            self.settling = nil
            reported = settling.status
            actions.append(.report(settling.status))
        }
        return actions
    }

    /// `nextDeadline` is when `tick(at:)` has something to do (monotonic seconds); `nil` when
    /// only a message can change anything.
    var nextDeadline: Double? {
        var deadlines: [Double] = []
        if let settling { deadlines.append(settling.deadline) }
        if let nextClockCheck { deadlines.append(nextClockCheck) }
        switch phase {
        case .dumping(_, _, _, _, let deadline): deadlines.append(deadline)
        case .waiting(let until): deadlines.append(until)
        case .idle: break
        }
        return deadlines.min()
    }

    private mutating func dumpReply(_ message: NetlinkMessage, at now: ClockReadings) -> [Action] {
        guard case .dumping(let dump, let sequence, var building, var interrupted, let deadline) = phase,
              message.sequence == sequence else { return [] }  // a reply to an abandoned dump
        interrupted = interrupted || message.wasInterrupted
        switch message.body {
        case .done:
            if interrupted { return beginDump(.links, building: RoutingState(), at: now) }
            if dump == .links { return beginDump(.routes, building: building, at: now) }
            routing = building
            hasSnapshot = true
            phase = .idle
            if recheckWanted {
                recheckWanted = false
                return beginDump(.links, building: RoutingState(), at: now) + evaluate(at: now)
            }
            return evaluate(at: now)
        case .error(let code) where code != 0:
            dumpFailed(at: now)
            return []
        default:
            building.apply(message)
            phase = .dumping(dump, sequence: sequence, building: building, interrupted: interrupted, deadline: deadline)
            return []
        }
    }

    private mutating func beginDump(_ dump: NetlinkRequest.Dump, building: RoutingState, at now: ClockReadings) -> [Action] {
        if dump == .links { recheckWanted = false }
        let sequence = nextSequence
        nextSequence = nextSequence == UInt32.max ? 1 : nextSequence + 1
        phase = .dumping(dump, sequence: sequence, building: building, interrupted: false,
                         deadline: now.monotonic + settings.dumpTimeout)
        return [.send(dump, sequence: sequence)]
    }

    /// `evaluate(at:)` compares the status the state implies with the one reported: the first
    /// known status is reported at once, a change once it has held for `settleDelay`.
    private mutating func evaluate(at now: ClockReadings) -> [Action] {
        let current = hasSnapshot ? routing.status : .unknown
        if current == reported {
            settling = nil
            return []
        }
        if reported == .unknown || settings.settleDelay <= 0 {
            settling = nil
            reported = current
            return [.report(current)]
        }
        if settling?.status != current {
            settling = (current, now.monotonic + settings.settleDelay)
        }
        return []
    }

    private mutating func scheduleClockCheck(after now: ClockReadings) {
        nextClockCheck = settings.clockCheckInterval.map { now.monotonic + $0 }
    }
}
