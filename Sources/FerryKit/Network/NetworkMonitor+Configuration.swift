extension NetworkMonitor {
    /// `Configuration` holds `NetworkMonitor`'s delays and its clock.
    public struct Configuration: Sendable {
        /// `defaultSettleDelay` is how long a new status must hold before it is reported.
        public static let defaultSettleDelay = Duration.milliseconds(300)
        /// `defaultClockCheckInterval` is how often the clocks are compared (a suspend and wake
        /// is noticed at most this long after the machine runs again).
        public static let defaultClockCheckInterval = Duration.seconds(2)

        /// `settleDelay` is how long a change must hold before it is reported;
        /// `defaultSettleDelay` (300 ms) by default. Zero reports every change at once.
        public var settleDelay: Duration
        /// `clockCheckInterval` is how often the clocks are compared while nothing happens;
        /// `defaultClockCheckInterval` (2 s) by default, `nil` only when a message or a call
        /// comes.
        public var clockCheckInterval: Duration?
        /// `clockJumpTolerance` is how far CLOCK_BOOTTIME or CLOCK_REALTIME may move against
        /// CLOCK_MONOTONIC between two checks before it counts as a jump; 1 s by default.
        public var clockJumpTolerance: Duration
        /// `clock` reads the clocks; the system's by default (tests pass their own).
        public var clock: @Sendable () -> ClockReadings

        public init(
            settleDelay: Duration = Configuration.defaultSettleDelay,
            clockCheckInterval: Duration? = Configuration.defaultClockCheckInterval,
            clockJumpTolerance: Duration = .seconds(1),
            clock: @escaping @Sendable () -> ClockReadings = { ClockReadings.now() }
        ) {
            self.settleDelay = settleDelay
            self.clockCheckInterval = clockCheckInterval
            self.clockJumpTolerance = clockJumpTolerance
            self.clock = clock
        }

        var trackerSettings: ReachabilityTracker.Settings {
            ReachabilityTracker.Settings(
                settleDelay: Self.seconds(settleDelay), clockCheckInterval: clockCheckInterval.map(Self.seconds),
                clockJumpTolerance: Self.seconds(clockJumpTolerance)
            )
        }

        private static func seconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) + Double(attoseconds) / 1e18
        }
    }
}
