import Foundation

/// `DataBodyStream` reads an upload body held in memory.
public final class DataBodyStream: BodyStream {
    private let data: Data
    private var offset = 0

    public init(_ data: Data) {
        self.data = data
    }

    public var contentLength: Int64 { Int64(data.count) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let count = min(buffer.count, data.count - offset)
        guard count > 0 else { return 0 }
        let start = data.startIndex + offset
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
        offset += count
        return count
    }

    public func rewind() throws(FerryError) {
        offset = 0
    }

    public func seek(to position: Int64) throws(FerryError) {
        guard position >= 0, position <= Int64(data.count) else { throw .upload(.cannotRewind) }
        offset = Int(position)
    }

    public func close() {}
}
