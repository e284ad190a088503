/// `FramePacer` decides when the run loop draws, ticks and how long it may sleep: at most
/// one frame per `frameInterval`, one tick per `tickInterval` while ticks are wanted, and an
/// unbounded sleep when nothing is pending. Times are durations since the loop started.
struct FramePacer {
    /// `frameInterval` is the shortest time between two frames (about 30 per second).
    static let frameInterval = Duration.milliseconds(33)
    /// `tickInterval` is the time between ticks while a task runs.
    static let tickInterval = Duration.seconds(1)

    private(set) var lastDraw: Duration?
    private(set) var nextTick: Duration?

    /// `schedule(now:wantsTick:)` starts or stops the tick.
    mutating func schedule(now: Duration, wantsTick: Bool) {
        if !wantsTick {
            nextTick = nil
        } else if nextTick == nil {
            nextTick = now + Self.tickInterval
        }
    }

    /// `takeTick(now:)` is true when a tick is due, and schedules the next one.
    mutating func takeTick(now: Duration) -> Bool {
        guard let due = nextTick, now >= due else { return false }
        let next = due + Self.tickInterval
        nextTick = next > now ? next : now + Self.tickInterval
        return true
    }

    /// `canDraw(now:)` is true when a frame may be drawn without exceeding the frame rate.
    func canDraw(now: Duration) -> Bool {
        guard let lastDraw else { return true }
        return now - lastDraw >= Self.frameInterval
    }

    /// `didDraw(now:)` records a frame.
    mutating func didDraw(now: Duration) { lastDraw = now }

    /// `pollTimeout(now:needsDraw:)` is the poll timeout in milliseconds: until the next
    /// allowed frame when a draw is pending, until the next tick when ticking, else -1 (sleep
    /// until input or a wake-up).
    func pollTimeout(now: Duration, needsDraw: Bool) -> Int32 {
        var wait: Duration?
        if needsDraw {
            wait = lastDraw.map { max(.zero, $0 + Self.frameInterval - now) } ?? .zero
        }
        if let nextTick {
            let untilTick = max(.zero, nextTick - now)
            wait = min(wait ?? untilTick, untilTick)
        }
        guard let wait else { return -1 }
        let (seconds, attoseconds) = wait.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
