import Glibc

/// `ClockReadings` are the three clocks read together, in seconds.
public struct ClockReadings: Sendable, Equatable {
    /// `monotonic` is CLOCK_MONOTONIC: stops while the machine sleeps.
    public var monotonic: Double
    /// `boot` is CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time spent asleep.
    public var boot: Double
    /// `wall` is CLOCK_REALTIME: jumps when the time is set.
    public var wall: Double

    public init(monotonic: Double, boot: Double, wall: Double) {
        self.monotonic = monotonic
        self.boot = boot
        self.wall = wall
    }

    /// `now()` reads the system's clocks.
    public static func now() -> ClockReadings {
        ClockReadings(monotonic: read(CLOCK_MONOTONIC), boot: read(CLOCK_BOOTTIME), wall: read(CLOCK_REALTIME))
    }

    private static func read(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}

/// `ClockJumpDetector` tells a suspend and wake, or a wall-clock step, from two readings: the
/// boot clock ran ahead of the monotonic clock (time asleep), or the wall clock moved
/// against it. Networks are often different after either, so `NetworkMonitor` reads
/// everything again.
struct ClockJumpDetector: Sendable {
    /// `tolerance` is how far the clocks may drift apart between two checks (seconds) before it
    /// counts as a jump.
    let tolerance: Double
    private var last: ClockReadings?

    init(tolerance: Double) {
        self.tolerance = tolerance
    }

    /// `check(_:)` compares `readings` with the previous ones and keeps them; true on a jump.
    mutating func check(_ readings: ClockReadings) -> Bool {
        defer { last = readings }
        guard let last else { return false }
        let asleep = (readings.boot - readings.monotonic) - (last.boot - last.monotonic)
        let wallStep = (readings.wall - readings.monotonic) - (last.wall - last.monotonic)
        return asleep > tolerance || abs(wallStep) > tolerance
    }
}
