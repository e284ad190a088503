import CZlib

/// `GzipDecoder` inflates a gzip stream (RFC 1952) piece by piece with zlib.
///
/// It decodes concatenated members, as `gzip -d` does, and accepts zero padding after the
/// last member. Memory stays flat: it never holds more than the caller's buffers.
final class GzipDecoder {
    /// `stream` lives on the heap because zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>
    /// `atMemberEnd` is true between the end of a member and the start of the next one.
    private(set) var atMemberEnd = false
    private var sawPadding = false

    init() throws(QueueError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_inflate_init_gzip(stream)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .input(.corruptGzip(detail: "zlib could not start (\(status))"))
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// `hasInput` is true while compressed bytes given to `setInput(_:count:)` remain.
    var hasInput: Bool { stream.pointee.avail_in > 0 }

    /// `setInput(_:count:)` hands zlib the next compressed bytes; they must stay valid
    /// until `hasInput` is false.
    func setInput(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        stream.pointee.next_in = bytes
        stream.pointee.avail_in = UInt32(count)
    }

    /// `decode(into:)` inflates as much as fits in `output` from the current input and
    /// returns the number of bytes written; `0` means more input is needed.
    func decode(into output: UnsafeMutableRawBufferPointer) throws(QueueError) -> Int {
        guard let base = output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count > 0 else { return 0 }
        var produced = 0
        while produced < output.count, hasInput {
            if atMemberEnd {
                if sawPadding || isZeroPadding() {
                    // Trailing zeros after the last member, as some writers pad: ignore them.
                    sawPadding = true
                    stream.pointee.next_in += Int(stream.pointee.avail_in)
                    stream.pointee.avail_in = 0
                    return produced
                }
                inflateReset(stream)
                atMemberEnd = false
            }
            stream.pointee.next_out = base + produced
            stream.pointee.avail_out = UInt32(output.count - produced)
            let status = inflate(stream, Z_NO_FLUSH)
            produced = output.count - Int(stream.pointee.avail_out)
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                atMemberEnd = true
            case Z_BUF_ERROR:
                return produced
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .input(.corruptGzip(detail: message))
            }
        }
        return produced
    }

    /// `isZeroPadding()` tells whether the remaining input is all zero bytes.
    private func isZeroPadding() -> Bool {
        guard let next = stream.pointee.next_in else { return false }
        return UnsafeBufferPointer(start: next, count: Int(stream.pointee.avail_in)).allSatisfy { $0 == 0 }
    }
}
