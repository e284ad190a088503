/// `OffsetBodyStream` is the rest of a body from `offset` on: what a resumed upload sends.
///
/// Its `contentLength` is what is left; a rewind goes back to `offset`, not to the start.
/// Used on the engine thread only, like every ``BodyStream``.
final class OffsetBodyStream: BodyStream {
    private let base: any BodyStream
    private let offset: Int64
    let contentLength: Int64

    /// `init(_:offset:)` seeks `base` to `offset` (at most its length).
    init(_ base: any BodyStream, offset: Int64) throws(FerryError) {
        guard base.contentLength >= 0, offset <= base.contentLength else {
            throw .upload(.readFailed("cannot resume the body at byte \(offset)"))
        }
        self.base = base
        self.offset = offset
        contentLength = base.contentLength - offset
        try base.seek(to: offset)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        try base.read(into: buffer)
    }

    func rewind() throws(FerryError) {
        try base.seek(to: offset)
    }

    func seek(to position: Int64) throws(FerryError) {
        try base.seek(to: offset + position)
    }

    func close() {
        base.close()
    }
}
