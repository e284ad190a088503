/// `OffsetBodyStream` is the rest of a body from `offset` on, or a window of `length` bytes
/// there: what a resumed upload sends (a tus upload with checksums sends its body in windows).
///
/// Its `contentLength` is what is left (or the window); a rewind goes back to `offset`, not to
/// the start. Used on the engine thread only, like every ``BodyStream``.
final class OffsetBodyStream: BodyStream {
    private let base: any BodyStream
    private let offset: Int64
    let contentLength: Int64
    /// Bytes of the window not read yet.
    private var left: Int64

    /// `init(_:offset:length:)` seeks `base` to `offset` (at most its length); `length` caps
    /// the window (to the body's end when `nil`).
    init(_ base: any BodyStream, offset: Int64, length: Int64? = nil) throws(FerryError) {
        guard base.contentLength >= 0, offset <= base.contentLength, (length ?? 0) >= 0 else {
            throw .upload(.readFailed("cannot resume the body at byte \(offset)"))
        }
        self.base = base
        self.offset = offset
        contentLength = min(base.contentLength - offset, length ?? .max)
        left = contentLength
        try base.seek(to: offset)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard left > 0 else { return 0 }
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), left))])
        let count = try base.read(into: room)
        left -= Int64(count)
        return count
    }

    func rewind() throws(FerryError) {
        try seek(to: 0)
    }

    func seek(to position: Int64) throws(FerryError) {
        guard position >= 0, position <= contentLength else { throw .upload(.readFailed("cannot seek the body to byte \(offset + position)")) }
        try base.seek(to: offset + position)
        left = contentLength - position
    }

    func close() {
        base.close()
    }
}
