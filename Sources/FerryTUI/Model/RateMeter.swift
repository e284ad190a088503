/// `RateMeter` is a transfer rate measured from the bytes counted and when they were counted:
/// the bytes of the last ``window`` seconds over that window, or, while counting began less
/// than a window ago, over the time since it began, so a rate shows from the first bytes.
///
/// It holds no clock: every call says what time it is (seconds on any monotonic scale), so
/// tests feed it explicit times. Memory is bounded: samples older than the window go.
///
/// ```swift
/// var meter = RateMeter(startingAt: 10)
/// meter.count(50_000, at: 10.5)
/// meter.rate(at: 10.5)   // 100_000 bytes per second
/// ```
public struct RateMeter: Sendable, Equatable {
    /// `window` is how many seconds of counts the rate is taken over: 3.
    public static let window = 3.0
    /// `idleGap` is how long without counts ends a run of counting: the next count starts a
    /// new one (its rate is taken from its own beginning, not over the idle time).
    public static let idleGap = window

    /// `Sample` is the running total of bytes at a time.
    private struct Sample: Sendable, Equatable {
        var time: Double
        var total: Int64
    }

    /// The counts of the last window, oldest first; the first one may be older (the total at
    /// the window's start).
    private var samples: [Sample] = []
    /// When the current run of counting began; `nil` before the first count.
    private var began: Double?
    /// `total` is every byte counted.
    public private(set) var total: Int64 = 0

    /// `init(startingAt:)` makes a meter; `time`, when given, is when the transfer it measures
    /// began (its first bytes are taken over the time since), `nil` by default (it begins at
    /// the first count).
    public init(startingAt time: Double? = nil) {
        if let time {
            began = time
            samples = [Sample(time: time, total: 0)]
        }
    }

    /// `begin(at:)` says a transfer began at `time`: when the meter is idle (nothing counted in
    /// the last ``idleGap`` seconds, or ever), a new run of counting begins then, so the first
    /// bytes are taken over the time since; otherwise nothing changes.
    public mutating func begin(at time: Double) {
        if let last = samples.last, time - last.time <= Self.idleGap { return }
        began = time
        samples = [Sample(time: time, total: total)]
    }

    /// `count(_:at:)` adds `bytes` that arrived by `time` (negative counts are ignored).
    public mutating func count(_ bytes: Int64, at time: Double) {
        guard bytes > 0 else { return }
        if let last = samples.last, time - last.time > Self.idleGap {
            // Idle for a while: a new run begins, measured from the previous count's time at
            // most one window back.
            began = max(last.time, time - Self.window)
            samples = [Sample(time: began ?? time, total: total)]
        } else if began == nil {
            began = time
            samples = [Sample(time: time, total: total)]
        }
        total += bytes
        if let last = samples.last, last.time >= time {
            samples[samples.count - 1].total = total
        } else {
            samples.append(Sample(time: time, total: total))
        }
        prune(at: time)
    }

    /// `span(at:)` is the seconds the rate at `time` is taken over: the window, or less while
    /// the run of counting began less than a window ago; 0 before anything was counted.
    public func span(at time: Double) -> Double {
        guard let began else { return 0 }
        return max(0, min(Self.window, time - began))
    }

    /// `rate(at:)` is the bytes per second at `time`: the bytes counted in the last window
    /// (or since the run began) over that span; 0 when nothing was counted in it.
    public func rate(at time: Double) -> Double {
        let span = span(at: time)
        guard span > 0 else { return 0 }
        let start = time - span
        // The total at the span's start: the last sample at or before it.
        var base = samples.first?.total ?? total
        for sample in samples {
            if sample.time > start { break }
            base = sample.total
        }
        return Double(total - base) / span
    }

    /// Drops samples that no rate at `time` or later needs: all but the last before the window.
    private mutating func prune(at time: Double) {
        let start = time - Self.window
        var drop = 0
        while drop + 1 < samples.count, samples[drop + 1].time <= start { drop += 1 }
        if drop > 0 { samples.removeFirst(drop) }
    }
}
