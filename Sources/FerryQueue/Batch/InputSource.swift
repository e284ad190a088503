import FerryKit
import Glibc

/// `InputSource` reads a file descriptor in chunks and transparently inflates gzip input.
///
/// Gzip is detected by its magic bytes (1f 8b) at the start, not by the file name, so a
/// compressed stdin works too. Memory is two fixed buffers whatever the input size.
final class InputSource {
    /// `chunkSize` is the size of each `read(2)`.
    static let chunkSize = 64 * 1024

    private let descriptor: Int32
    private let raw: UnsafeMutablePointer<UInt8>
    /// `pending` bytes at the start of `raw` were read while sniffing and not yet returned.
    private var pending = 0
    private var endOfInput = false
    private var gzip: GzipDecoder?

    /// `init(descriptor:)` sniffs the first bytes of `descriptor`; it never closes it.
    init(descriptor: Int32) throws(QueueError) {
        self.descriptor = descriptor
        raw = UnsafeMutablePointer<UInt8>.allocate(capacity: InputSource.chunkSize)
        while pending < 2, !endOfInput {
            let count = try readRaw(into: raw + pending, capacity: InputSource.chunkSize - pending)
            pending += count
            endOfInput = count == 0
        }
        if pending >= 2, raw[0] == 0x1F, raw[1] == 0x8B {
            let decoder = try GzipDecoder()
            decoder.setInput(raw, count: pending)
            pending = 0
            gzip = decoder
        }
    }

    deinit {
        raw.deallocate()
    }

    /// `isCompressed` is true when the input is gzip.
    var isCompressed: Bool { gzip != nil }

    /// `read(into:)` fills `buffer` with the next decoded bytes; `0` means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(QueueError) -> Int {
        guard let gzip else {
            if pending > 0 {
                let count = min(pending, buffer.count)
                buffer.baseAddress?.copyMemory(from: raw, byteCount: count)
                memmove(raw, raw + count, pending - count)
                pending -= count
                return count
            }
            guard let base = buffer.baseAddress, !endOfInput else { return 0 }
            let count = try readRaw(into: base.assumingMemoryBound(to: UInt8.self), capacity: buffer.count)
            endOfInput = count == 0
            return count
        }
        while true {
            let produced = try gzip.decode(into: buffer)
            if produced > 0 { return produced }
            if gzip.hasInput { continue }
            if endOfInput {
                guard gzip.atMemberEnd else {
                    throw .input(.corruptGzip(detail: "unexpected end of the compressed stream"))
                }
                return 0
            }
            let count = try readRaw(into: raw, capacity: InputSource.chunkSize)
            endOfInput = count == 0
            gzip.setInput(raw, count: count)
        }
    }

    private func readRaw(into pointer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(QueueError) -> Int {
        let count = SystemCall.retrying { Glibc.read(descriptor, pointer, capacity) }
        guard count >= 0 else {
            throw .input(.readFailed(errno: errno))
        }
        return count
    }
}
