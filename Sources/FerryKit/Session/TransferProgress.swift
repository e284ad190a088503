/// `TransferProgress` is a snapshot of one task's progress: bytes done and expected, speed, ETA.
///
/// An unknown expected size stays `nil`; it is never shown as 0 or -1.
public struct TransferProgress: Sendable, Equatable {
    /// Body bytes received, including any bytes already on disk before a resume.
    public var receivedBytes: Int64 = 0
    /// Body bytes expected in total, `nil` when unknown.
    public var expectedReceivedBytes: Int64?
    /// Body bytes sent.
    public var sentBytes: Int64 = 0
    /// Body bytes to send in total, `nil` when there is no body.
    public var expectedSentBytes: Int64?
    /// Speed of the main direction (sending for uploads, receiving otherwise) over a moving window.
    public var bytesPerSecond: Double = 0
    /// Connections the transfer uses now, for a download split across several
    /// (`SegmentedDownload`); `nil` (one) by default.
    public var connections: Int?
    /// Each source of a download fetched from several at once (`SegmentedDownload` with
    /// mirrors); `nil` for a download from one.
    public var sources: [SourceReport]?

    public init(receivedBytes: Int64 = 0, expectedReceivedBytes: Int64? = nil, sentBytes: Int64 = 0, expectedSentBytes: Int64? = nil, bytesPerSecond: Double = 0) {
        self.receivedBytes = receivedBytes
        self.expectedReceivedBytes = expectedReceivedBytes
        self.sentBytes = sentBytes
        self.expectedSentBytes = expectedSentBytes
        self.bytesPerSecond = bytesPerSecond
    }

    /// Whether the main direction is sending (an upload with its body not yet sent).
    public var isSending: Bool {
        guard let expectedSentBytes, expectedSentBytes > 0 else { return false }
        return sentBytes < expectedSentBytes || receivedBytes == 0
    }

    /// Bytes done in the main direction.
    public var completedBytes: Int64 { isSending ? sentBytes : receivedBytes }
    /// Bytes expected in the main direction, `nil` when unknown.
    public var expectedBytes: Int64? { isSending ? expectedSentBytes : expectedReceivedBytes }

    /// Fraction done in the main direction (0...1), `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let total = expectedBytes else { return nil }
        if total == 0 { return 1 }
        return min(1, Double(completedBytes) / Double(total))
    }

    /// Seconds left at the current speed, `nil` when the total or the speed is unknown.
    public var estimatedSecondsRemaining: Double? {
        guard let total = expectedBytes, bytesPerSecond > 0 else { return nil }
        return Double(max(0, total - completedBytes)) / bytesPerSecond
    }
}
