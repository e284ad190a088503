/// `ByteReader` reads native-endian integers at offsets of a byte buffer, each read checked
/// against its bounds (`nil` past the end). It only lives while the buffer does.
struct ByteReader {
    private let storage: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        storage = bytes
    }

    /// `count` is the number of bytes readable.
    var count: Int { storage.count }

    /// `bytes` is a copy of every byte.
    var bytes: [UInt8] { Array(storage) }

    func u8(at offset: Int) -> UInt8? {
        load(at: offset, as: UInt8.self)
    }

    func u16(at offset: Int) -> UInt16? {
        load(at: offset, as: UInt16.self)
    }

    func u32(at offset: Int) -> UInt32? {
        load(at: offset, as: UInt32.self)
    }

    func i32(at offset: Int) -> Int32? {
        load(at: offset, as: Int32.self)
    }

    /// `slice(from:count:)` is the bytes [from, from+count), clamped to the buffer.
    func slice(from start: Int, count: Int) -> ByteReader {
        let lower = min(max(0, start), storage.count)
        let upper = lower + min(storage.count - lower, max(0, count))
        return ByteReader(UnsafeRawBufferPointer(rebasing: storage[lower..<upper]))
    }

    /// `cString()` is the text up to the first NUL byte (or the end), decoded as UTF-8 with
    /// repairs.
    func cString() -> String {
        let end = storage.firstIndex(of: 0) ?? storage.count
        return String(decoding: UnsafeRawBufferPointer(rebasing: storage[0..<end]), as: UTF8.self)
    }

    private func load<T: FixedWidthInteger>(at offset: Int, as type: T.Type) -> T? {
        guard offset >= 0, storage.count - offset >= MemoryLayout<T>.size else { return nil }
        return storage.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
}
