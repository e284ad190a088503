/// `Pacer` holds one transfer to its speed cap: a token bucket the write callback draws from.
///
/// libcurl's own cap (`CURLOPT_MAX_RECV_SPEED_LARGE`) on the libcurl here lets the first
/// seconds through at full speed and then delivers in bursts with silent gaps; a cap is a cap
/// from the first second. Bytes are taken while the bucket holds any (it may go into debt by
/// one read); once it is empty the transfer pauses (`CURL_WRITEFUNC_PAUSE`, libcurl keeps the
/// bytes) until the debt is paid back, and the engine wakes it then (`resumeTime`). The reads
/// are small (``receiveBufferSize(for:)``), so the rate is smooth within a second.
///
/// A value owned by its `EasyHandle`, used on the engine thread only.
struct Pacer {
    /// Bytes per second.
    let rate: Double
    /// Bytes allowed ahead of time; a burst at most this large.
    private let capacity: Double
    private var tokens: Double
    private var last: Double

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
        guard tokens > 0 else { return false }
        tokens -= Double(count)
        return true
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
