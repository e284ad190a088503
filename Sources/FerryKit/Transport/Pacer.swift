/// `Pacer` holds one transfer to its speed cap: a token bucket the write callback draws from.
///
/// libcurl's own cap (`CURLOPT_MAX_RECV_SPEED_LARGE`) on the libcurl here lets the first
/// seconds through at full speed and then delivers in bursts with silent gaps; a cap is a cap
/// from the first second. Bytes are taken while the bucket holds any (it may go into debt by
/// one read); once it is empty the transfer pauses (`CURL_WRITEFUNC_PAUSE`, libcurl keeps the
/// bytes) until the debt is paid back, and the engine wakes it then (`resumeTime`). The reads
/// are small (``receiveBufferSize(for:)``), so the rate is smooth within a second.
///
/// The rate may change while the transfer runs (``setRate(_:now:)``): the engine's shared
/// budget (`BandwidthBudget`) does so a few times a second.
///
/// A value owned by its `EasyHandle`, used on the engine thread only.
struct Pacer {
    /// Bytes per second.
    private(set) var rate: Double
    /// Bytes allowed ahead of time; a burst at most this large.
    private var capacity: Double
    private var tokens: Double
    private var last: Double
    /// Whether the bucket ran dry (the transfer wanted more than its rate) since
    /// ``takeLimitedFlag()`` last ran.
    private var wasLimited = false

    init(rate: Int64, now: Double) {
        self.rate = Double(max(1, rate))
        capacity = max(1024, self.rate / 10)
        tokens = capacity
        last = now
    }

    /// libcurl's receive buffer for a transfer capped at `rate`: about a quarter of a second of
    /// bytes, between 1 KiB and `maximum`.
    static func receiveBufferSize(for rate: Int64, maximum: Int) -> Int {
        min(maximum, max(1024, Int(rate / 4)))
    }

    /// Whether `count` bytes may be taken at `now` (they are then counted); `false` when the
    /// transfer must pause until ``resumeTime``.
    mutating func take(_ count: Int, now: Double) -> Bool {
        refill(now: now)
        guard tokens > 0 else {
            wasLimited = true
            return false
        }
        tokens -= Double(count)
        if tokens <= 0 { wasLimited = true }
        return true
    }

    /// The most bytes to hand over at `now` (an upload's read, then counted with ``take(_:now:)``):
    /// what the bucket holds, at most a tenth of a second's worth and `maximum`; `nil` when it
    /// is empty and the transfer must pause until ``resumeTime``.
    mutating func allowance(maximum: Int, now: Double) -> Int? {
        refill(now: now)
        guard tokens > 0 else {
            wasLimited = true
            return nil
        }
        return max(1, min(maximum, Int(tokens.rounded(.up)), Int(max(1024, rate / 10))))
    }

    /// `setRate(_:now:)` makes `rate` the new rate from `now` on (the time before it counts at
    /// the old one); a debt is kept, so a lower rate is no burst.
    mutating func setRate(_ rate: Int64, now: Double) {
        refill(now: now)
        self.rate = Double(max(1, rate))
        capacity = max(1024, self.rate / 10)
        tokens = min(tokens, capacity)
    }

    /// Whether the transfer wanted more than its rate since the last call; resets the flag.
    mutating func takeLimitedFlag() -> Bool {
        defer { wasLimited = false }
        return wasLimited
    }

    /// When the bucket holds bytes again.
    var resumeTime: Double {
        tokens > 0 ? last : last + (1 - tokens) / rate
    }

    private mutating func refill(now: Double) {
        guard now > last else { return }
        tokens = min(capacity, tokens + (now - last) * rate)
        last = now
    }
}
