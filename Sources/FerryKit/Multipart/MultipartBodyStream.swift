import Foundation

/// `MultipartBodyStream` produces a `multipart/form-data` body on demand, reading across its parts in order.
///
/// Made by ``MultipartFormData/makeBodyStream()``, once per attempt of an upload. Its
/// ``contentLength`` is the exact sum of its parts, known before the first byte; reads fill the
/// buffer across part and phase edges and work with any buffer size, one byte included. A part
/// that cannot be read, or whose length differs from the one declared when it was appended,
/// fails the read with a thrown ``FerryError`` (an ``UploadReason`` such as
/// ``UploadReason/fileChanged(path:expected:actual:)``, or the error of the part's own stream),
/// and every later read throws it again until ``rewind()``.
///
/// A form with no parts gives an empty body (`contentLength` 0), as AFNetworking does: it leaves
/// such a request without a body rather than sending a lone final boundary.
///
/// Not thread-safe: used by one thread at a time (the engine's), like every ``BodyStream``.
public final class MultipartBodyStream: BodyStream {
    /// `Throttle` limits how many bytes one read returns and pauses between such packets.
    ///
    /// The pause is a blocking sleep on the reading thread, by design, as in AFNetworking's
    /// `throttleBandwidthWithPacketSize:delay:`. On Ferry's engine thread that pauses every
    /// transfer, so a session's rate limit (which libcurl applies without blocking) is the
    /// better tool for uploads over the network; throttling is for parity and special cases.
    public struct Throttle: Sendable, Equatable {
        /// `bytesPerPacket` is the most bytes one read returns; at least 1.
        public var bytesPerPacket: Int
        /// `delay` is the pause before each packet after the first; zero or more.
        public var delay: Duration

        /// `init(bytesPerPacket:delay:)` creates a throttle; `bytesPerPacket` below 1 is raised to 1 and a negative `delay` counts as zero.
        public init(bytesPerPacket: Int, delay: Duration) {
            self.bytesPerPacket = max(1, bytesPerPacket)
            self.delay = max(.zero, delay)
        }

        /// `Throttle.slowNetwork` is AFNetworking's suggestion for 3G links: 16 KiB packets, 0.2 s apart.
        public static let slowNetwork = Throttle(bytesPerPacket: 16 * 1024, delay: .milliseconds(200))
    }

    /// `contentLength` is the exact number of bytes the stream produces, known before the first read.
    public let contentLength: Int64
    /// `throttle` is the throttle applied to reads, `nil` (unthrottled) by default.
    public private(set) var throttle: Throttle?
    /// `bytesRead` is how many bytes have been produced since the start or the last ``rewind()``.
    public private(set) var bytesRead: Int64 = 0

    private let parts: [BodyPart]
    private let sleep: (Duration) -> Void
    private var current = 0
    private var packets = 0
    private var failure: FerryError?
    private var isClosed = false

    /// `init(parts:boundary:throttle:sleep:)` creates a stream over `parts`, marking the first and the last, separated by `boundary`.
    ///
    /// `sleep` performs a throttle's delay; it blocks the calling thread by default.
    init(parts: [FormPart], boundary: String, throttle: Throttle? = nil, sleep: @escaping (Duration) -> Void = MultipartBodyStream.blockingSleep) {
        self.parts = parts.enumerated().map { index, part in
            BodyPart(part: part, index: index, boundary: boundary, isFirst: index == 0, isLast: index == parts.count - 1)
        }
        self.contentLength = self.parts.reduce(0) { $0 + $1.contentLength }
        self.throttle = throttle
        self.sleep = sleep
    }

    deinit {
        for part in parts { part.close() }
    }

    /// `throttle(bytesPerPacket:delay:)` limits each read to `bytesPerPacket` bytes and sleeps `delay` before every packet after the first.
    ///
    /// Blocking by design (see ``Throttle``).
    public func throttle(bytesPerPacket: Int, delay: Duration) {
        throttle = Throttle(bytesPerPacket: bytesPerPacket, delay: delay)
    }

    /// `read(into:)` fills up to `buffer.count` bytes (fewer when throttled) and returns how many; 0 means the end.
    ///
    /// An empty buffer returns 0 without reading.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard !isClosed else { throw .upload(.readFailed("the multipart body stream is closed")) }
        if let failure { throw failure }
        let limit = min(buffer.count, throttle?.bytesPerPacket ?? Int.max)
        guard limit > 0, current < parts.count else { return 0 }
        if let throttle, packets > 0, throttle.delay > .zero {
            sleep(throttle.delay)
        }
        var filled = 0
        do throws(FerryError) {
            while filled < limit, current < parts.count {
                let count = try parts[current].read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<limit]))
                if count == 0 {
                    current += 1
                } else {
                    filled += count
                }
            }
            // Step past a part that just ended, so the read that reports the end neither opens nor sleeps.
            while current < parts.count, parts[current].phase == .finished {
                current += 1
            }
        } catch {
            failure = error
            throw error
        }
        if filled > 0 { packets += 1 }
        bytesRead += Int64(filled)
        return filled
    }

    /// `rewind()` goes back to the first byte: every part starts over and re-opens its body when reached.
    public func rewind() throws(FerryError) {
        guard !isClosed else { throw .upload(.cannotRewind) }
        for part in parts {
            try part.rewind()
        }
        current = 0
        packets = 0
        bytesRead = 0
        failure = nil
    }

    /// `seek(to:)` goes to byte `offset` of the body (at most ``contentLength``), exactly: the
    /// parts before it are skipped unread, the part it falls in computes its phase and seeks
    /// its file, the parts after it start over. A resumed upload sends the rest from there.
    public func seek(to offset: Int64) throws(FerryError) {
        guard !isClosed, offset >= 0, offset <= contentLength else { throw .upload(.cannotRewind) }
        var start: Int64 = 0
        current = parts.count
        for (index, part) in parts.enumerated() {
            let end = start + part.contentLength
            if current < parts.count {
                try part.rewind()
            } else if offset < end {
                try part.seek(to: offset - start)
                current = index
            } else {
                part.skip()
            }
            start = end
        }
        packets = 0
        bytesRead = offset
        failure = nil
    }

    /// `close()` closes every open part body; reading or rewinding afterwards is an error.
    public func close() {
        for part in parts { part.close() }
        isClosed = true
    }

    /// `blockingSleep(_:)` sleeps the calling thread for `duration`, resuming after signals.
    static func blockingSleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
