import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `Pattern` reproduces the fault server's deterministic byte stream (`/bytes/<n>?seed=<s>`).
///
/// Byte `i` of the stream for `seed` is
///
///     k       = i >> 11                                      (2 KiB block index)
///     h       = ((k XOR (seed * 40503)) * 2654435761) mod 2^32
///     byte[i] = (i * 131 + (h >> 24)) mod 256
///
/// Inside a block consecutive bytes step by 131, and every block is shifted by a hash of
/// its index, so the stream has no period at power-of-two distances: a buffer written at
/// the wrong offset changes the file's hash. Only the low 32 bits of `seed` matter.
public enum Pattern {
    /// `Pattern.blockSize` is the length of a block sharing one offset: 2048 bytes.
    public static let blockSize = 2048

    /// `blocks` holds the 256 possible blocks back to back: block `c` at `c * blockSize`.
    private static let blocks: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * blockSize)
        for shift in 0..<256 {
            for index in 0..<blockSize {
                table[shift * blockSize + index] = UInt8(truncatingIfNeeded: index &* 131 &+ shift)
            }
        }
        return table
    }()

    /// `blockOffset(_:seed:)` is the value added to every byte of block `block`.
    public static func blockOffset(_ block: Int, seed: Int) -> Int {
        let mixed = UInt64(truncatingIfNeeded: block) ^ (UInt64(truncatingIfNeeded: seed) &* 40503)
        return Int(((mixed &* 2_654_435_761) & 0xFFFF_FFFF) >> 24)
    }

    /// `byte(at:seed:)` is byte `index` of the stream.
    public static func byte(at index: Int, seed: Int = 0) -> UInt8 {
        UInt8(truncatingIfNeeded: index &* 131 &+ blockOffset(index >> 11, seed: seed))
    }

    /// `fill(_:offset:seed:)` writes the stream's bytes `offset ..< offset + buffer.count`
    /// into `buffer`.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer, offset: Int, seed: Int = 0) {
        guard let destination = buffer.baseAddress else { return }
        blocks.withUnsafeBytes { table in
            var written = 0
            while written < buffer.count {
                let position = offset + written
                let inBlock = position & (blockSize - 1)
                let take = min(blockSize - inBlock, buffer.count - written)
                let source = table.baseAddress!
                    .advanced(by: blockOffset(position >> 11, seed: seed) * blockSize + inBlock)
                (destination + written).copyMemory(from: source, byteCount: take)
                written += take
            }
        }
    }

    /// `bytes(count:seed:offset:)` is the stream's bytes `offset ..< offset + count`
    /// (offset 0 by default), what `/bytes/<n>?seed=<seed>` sends for that range.
    public static func bytes(count: Int, seed: Int = 0, offset: Int = 0) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0, offset: offset, seed: seed) }
        return data
    }

    /// `writeFile(at:count:seed:)` creates (or truncates) the file at `url` with the first
    /// `count` bytes of the stream, in 1 MiB writes (a 1 GiB file takes about a second).
    public static func writeFile(at url: URL, count: Int, seed: Int = 0) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TestSupportError.posix("open \(url.path)") }
        defer { close(fd) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < count {
            let length = min(chunk, count - offset)
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
            fill(slice, offset: offset, seed: seed)
            var done = 0
            while done < length {
                let written = write(fd, slice.baseAddress! + done, length - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw TestSupportError.posix("write \(url.path)")
                }
                done += written
            }
            offset += length
        }
    }

    /// `sha256Hex(count:seed:offset:)` is the SHA-256 of the stream's bytes
    /// `offset ..< offset + count`, computed in 1 MiB pieces without a file.
    public static func sha256Hex(count: Int, seed: Int = 0, offset: Int = 0) -> String {
        var hasher = SHA256Hex.Hasher()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var done = 0
        while done < count {
            let length = min(chunk, count - done)
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
            fill(slice, offset: offset + done, seed: seed)
            hasher.update(UnsafeRawBufferPointer(slice))
            done += length
        }
        return hasher.finalize()
    }
}
