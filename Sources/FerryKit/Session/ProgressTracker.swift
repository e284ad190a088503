/// `ProgressTracker` turns byte counts into coalesced ``TransferProgress`` snapshots with a moving-window speed.
///
/// Owned by one thread (the engine's). It keeps at most `sampleCapacity` samples, so memory is
/// constant however long the transfer runs.
struct ProgressTracker {
    /// Seconds between two published snapshots: at most ~10 per second per task.
    static let publishInterval = 0.1
    /// Seconds of history the speed is averaged over.
    static let window = 5.0
    static let sampleCapacity = 64

    private(set) var current = TransferProgress()
    private var samples: [(time: Double, bytes: Int64)] = []
    private var lastPublished: Double = -.infinity
    private var lastSample: Double = -.infinity

    /// Records new counts at `now`; returns a snapshot when one is due (or when `force` is set).
    mutating func update(received: Int64, expectedReceived: Int64?, sent: Int64, expectedSent: Int64?, now: Double, force: Bool = false) -> TransferProgress? {
        current.receivedBytes = received
        current.expectedReceivedBytes = expectedReceived
        current.sentBytes = sent
        current.expectedSentBytes = expectedSent
        let bytes = current.completedBytes
        if now - lastSample >= Self.publishInterval / 2 || samples.isEmpty {
            if let last = samples.last, bytes < last.bytes {
                samples.removeAll()  // a restart from zero: old samples would give a negative speed
            }
            samples.append((now, bytes))
            lastSample = now
            while let first = samples.first, (now - first.time > Self.window && samples.count > 2) || samples.count > Self.sampleCapacity {
                samples.removeFirst()
            }
        }
        if let first = samples.first, now > first.time {
            current.bytesPerSecond = max(0, Double(bytes - first.bytes) / (now - first.time))
        }
        guard force || now - lastPublished >= Self.publishInterval else { return nil }
        lastPublished = now
        return current
    }
}
