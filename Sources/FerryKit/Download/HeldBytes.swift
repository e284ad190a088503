import Synchronization

/// `HeldBytes` are the bytes of a small unnamed file kept in memory until the file is made
/// durable (`PartialFile.holdBytes(expecting:)`): the engine thread only copies them, and the
/// completion thread, which makes the file durable anyway, writes them with one
/// call. With 5,000 downloads of 16 KiB at 16 at once, writing each into the page cache was
/// a third of the engine thread's time, and the engine thread is the one every transfer waits for.
///
/// At most `limit` bytes per file, and `budget` bytes in the whole process: beyond that, files
/// are written as their bytes come. Not thread-safe: owned by one `PartialFile`, which one
/// thread at a time uses; only the budget is shared, behind a lock.
final class HeldBytes {
    /// The largest file whose bytes are held, `64 KiB`.
    static let limit: Int64 = 64 << 10
    /// The most bytes held in the whole process at once, `16 MiB`.
    static let budget = 16 << 20

    private static let used = Mutex(0)

    private let storage: UnsafeMutableRawPointer
    private let capacity: Int
    /// How many bytes are held.
    private(set) var count = 0
    private var released = false

    /// `init?(capacity:)` holds up to `capacity` bytes, or fails when that is above `limit` or
    /// the process's budget has no room for them.
    init?(capacity: Int) {
        guard capacity > 0, Int64(capacity) <= HeldBytes.limit else { return nil }
        let granted = HeldBytes.used.withLock { used -> Bool in
            guard used + capacity <= HeldBytes.budget else { return false }
            used += capacity
            return true
        }
        guard granted else { return nil }
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        release()
    }

    /// `bytes` are the bytes held, in order.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// `append(_:)` holds `bytes` after the others; `false` (holding nothing more) when they
    /// do not fit.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !released, count + bytes.count <= capacity else { return false }
        if let source = bytes.baseAddress, bytes.count > 0 {
            (storage + count).copyMemory(from: source, byteCount: bytes.count)
            count += bytes.count
        }
        return true
    }

    /// `release()` frees the memory and gives its room back to the budget (idempotent).
    func release() {
        guard !released else { return }
        released = true
        storage.deallocate()
        let capacity = capacity
        HeldBytes.used.withLock { $0 -= capacity }
    }
}
