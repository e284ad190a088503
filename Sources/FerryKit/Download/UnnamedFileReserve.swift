import CFerrySystem
import Glibc
import Synchronization

/// `UnnamedFileReserve` keeps a few empty unnamed files (`O_TMPFILE`) ready per directory, so
/// that a small download usually takes one instead of making its own: the completion thread
/// for a download whose bytes were held in memory (`PartialFile.deferredUnnamed`), the engine
/// thread at the first byte of the others (`PartialFile.createUnnamed(standingFor:mark:reserve:)`).
///
/// Each engine has one (`Engine.unnamedFiles`). The files are made on its naming thread,
/// after it named files in the same directory (`used(_:)`, then `replenish()`): a directory
/// gets files ahead only once an unnamed file with its mark was made and named there, so the
/// file system is known to allow both. They carry no mark yet (the mark names one download):
/// the download that takes one sets it before the file is made durable and named
/// (`PartialFile.writePendingMark()`).
///
/// A file waits at most `maximumAge` seconds, so a directory removed or replaced meanwhile
/// costs at most a failed name; at most `capacity` wait per directory and `totalCapacity` in
/// all (each holds a descriptor). The engine closes them all when it shuts down. An unnamed
/// file disappears when closed: nothing is left on the disk, whatever happens.
///
/// Thread-safe: the state sits in a `Mutex`; files are opened and closed outside it.
final class UnnamedFileReserve: Sendable {
    /// Files ready per directory at most: more than the scheduler hands to the engine ahead
    /// of need at 16 at once (`SlotPlanner.aheadFactor`), so that the reserve can grow to what
    /// a run of small downloads takes between two turns of the naming thread.
    static let capacity = 256
    /// Files ready in all directories at most.
    static let totalCapacity = 512
    /// Directories remembered as allowing unnamed files (`hasNamed(in:)`) at most.
    static let namedDirectoryLimit = 1024
    /// Seconds a ready file may wait before it is closed unused.
    static let maximumAge = 2.0

    private struct Ready {
        var descriptor: Int32
        var made: Double
    }

    private struct State {
        var ready: [String: [Ready]] = [:]
        /// Files named per directory since the last `replenish()`.
        var used: [String: Int] = [:]
        /// Takes per directory since the last `replenish()` that found no file ready (the
        /// engine made its own): the next `replenish()` makes that many more, so a reserve
        /// that runs dry between two turns grows to what the downloads use.
        var misses: [String: Int] = [:]
        /// Directories where an unnamed file with its mark was named (`hasNamed(in:)`).
        var named: Set<String> = []
    }

    private let state = Mutex(State())
    private let clock: any MonotonicClock
    /// `expected` is how many transfers the engine holds (running or waiting for a place): no
    /// more files than that are ever taken before the scheduler hands it others, so no more
    /// are made. Unbounded until the engine says (`expectTransfers(_:)`).
    private let expected = Atomic<Int>(Int.max)

    init(clock: any MonotonicClock = SystemClock()) {
        self.clock = clock
    }

    /// `readyCount(in:)` is how many files wait in `directory` (stale ones included).
    func readyCount(in directory: String) -> Int {
        state.withLock { $0.ready[directory]?.count ?? 0 }
    }

    /// `take(directory:)` returns a ready unnamed file in `directory` (its descriptor, open
    /// for writing, mode 0666 less the umask), or `nil` when none is ready.
    func take(directory: String) -> Int32? {
        let now = clock.now()
        var stale: [Int32] = []
        let descriptor = state.withLock { state -> Int32? in
            var files = state.ready[directory] ?? []
            var found: Int32?
            while let file = files.popLast() {
                if now - file.made <= UnnamedFileReserve.maximumAge {
                    found = file.descriptor
                    break
                }
                stale.append(file.descriptor)
            }
            state.ready[directory] = files.isEmpty ? nil : files
            if found == nil { state.misses[directory, default: 0] += 1 }
            return found
        }
        for fd in stale { Glibc.close(fd) }
        return descriptor
    }

    /// `expectTransfers(_:)` says how many transfers the engine holds now (engine thread): at
    /// the end of a run of small downloads, no file is made that none of them will take (each
    /// one left is an inode made and freed for nothing, a few milliseconds per hundred).
    func expectTransfers(_ count: Int) {
        expected.store(count, ordering: .relaxed)
    }

    /// `used(_:)` notes that an unnamed file was named in `directory`: the next `replenish()`
    /// makes one more there.
    func used(_ directory: String) {
        state.withLock { state in
            state.used[directory, default: 0] += 1
            if !state.named.contains(directory) {
                // A long-running engine may name files in many directories: each is learnt
                // again from one named file.
                if state.named.count >= UnnamedFileReserve.namedDirectoryLimit { state.named.removeAll() }
                state.named.insert(directory)
            }
        }
    }

    /// `hasNamed(in:)` is true when an unnamed file with its mark was named in `directory`
    /// (and no failure there since, `forget(_:)`): its file system allows both, so a
    /// download there may make its file later (`PartialFile.deferredUnnamed`).
    func hasNamed(in directory: String) -> Bool {
        state.withLock { $0.named.contains(directory) }
    }

    /// `forget(_:)` notes that an unnamed file could not be made or marked in `directory`
    /// (the directory was replaced, or another file system mounted there): downloads there
    /// make their files at once again, with the fallbacks `PartialFile.createUnnamed` has.
    func forget(_ directory: String) {
        state.withLock { _ = $0.named.remove(directory) }
    }

    /// `replenish()` makes as many files as were named since the last call, per directory,
    /// and as many more as takes found none there (`State.misses`), up to `capacity` ready
    /// there, `totalCapacity` in all and as many as the engine holds transfers, and closes
    /// the files that waited too long. Called on the engine's naming thread (one at a time)
    /// after a batch of downloads was named.
    func replenish() {
        let now = clock.now()
        var stale: [Int32] = []
        let wanted = state.withLock { state -> [(String, Int)] in
            for (directory, files) in state.ready {
                let fresh = files.filter { now - $0.made <= UnnamedFileReserve.maximumAge }
                guard fresh.count < files.count else { continue }
                stale += files.filter { now - $0.made > UnnamedFileReserve.maximumAge }.map(\.descriptor)
                state.ready[directory] = fresh.isEmpty ? nil : fresh
            }
            var room = UnnamedFileReserve.totalCapacity - state.ready.values.reduce(0) { $0 + $1.count }
            var wanted: [(String, Int)] = []
            for (directory, count) in state.used where room > 0 {
                let needed = count + (state.misses[directory] ?? 0)
                let ready = state.ready[directory]?.count ?? 0
                let missing = min(needed, room, UnnamedFileReserve.capacity - ready, expected.load(ordering: .relaxed) - ready)
                guard missing > 0 else { continue }
                wanted.append((directory, missing))
                room -= missing
            }
            state.used.removeAll()
            state.misses.removeAll()
            return wanted
        }
        for fd in stale { Glibc.close(fd) }
        for (directory, count) in wanted {
            var made: [Ready] = []
            for _ in 0..<count {
                let fd = csystem_open_unnamed(directory, 0o666)
                guard fd >= 0 else { break }
                made.append(Ready(descriptor: fd, made: now))
            }
            guard !made.isEmpty else { continue }
            state.withLock { $0.ready[directory, default: []] += made }
        }
    }

    /// `removeAll()` closes every ready file (the engine shutting down).
    func removeAll() {
        let all = state.withLock { state -> [Ready] in
            defer { state.ready.removeAll() }
            return state.ready.values.flatMap { $0 }
        }
        for file in all { Glibc.close(file.descriptor) }
    }
}
