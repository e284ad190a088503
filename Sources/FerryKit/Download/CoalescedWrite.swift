/// `CoalescedWrite` gathers one connection's contiguous bytes, which libcurl hands over 16 KiB
/// at a time, into one positional write of up to ``capacity`` bytes: a split download makes
/// an eighth of the `pwrite` calls it would otherwise.
///
/// Not thread-safe: a ``SegmentedDownload`` keeps one per connection under its lock, and
/// writes it out before every sync (what is gathered is not on disk yet) and when its
/// connection ends.
final class CoalescedWrite {
    /// `capacity` is the most bytes gathered before they are written, `128 KiB`.
    static let capacity = 128 << 10

    private let storage = UnsafeMutableRawPointer.allocate(byteCount: CoalescedWrite.capacity, alignment: 4096)
    /// The file offset of the first byte gathered.
    private var offset: Int64 = 0
    /// How many bytes are gathered.
    private(set) var count = 0

    deinit {
        storage.deallocate()
    }

    /// Adds `bytes`, which belong at `position` in `file`; what was gathered is written first
    /// when `bytes` do not follow it or do not fit.
    func add(_ bytes: UnsafeRawBufferPointer, at position: Int64, to file: PartialFile) throws(FerryError) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count > 0, offset + Int64(count) != position || count + bytes.count > Self.capacity {
            try flush(to: file)
        }
        if bytes.count >= Self.capacity {
            try file.write(bytes, at: position)
            return
        }
        if count == 0 { offset = position }
        (storage + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Writes what was gathered to `file`; when that fails, it stays gathered.
    func flush(to file: PartialFile) throws(FerryError) {
        guard count > 0 else { return }
        try file.write(UnsafeRawBufferPointer(start: storage, count: count), at: offset)
        count = 0
    }

    /// Forgets what was gathered (the file changed on the server: those bytes are not its own).
    func discard() {
        count = 0
    }
}
