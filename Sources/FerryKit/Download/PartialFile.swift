import CFerrySystem
import Foundation

/// `PartialFile` is a download's `NAME.part`: created safely, written in order, then committed
/// to its final name without replacing anything unless asked.
///
/// Used on one thread at a time: the engine's while the transfer runs, then the completion
/// thread's, which makes it durable, then the naming thread's, which names it.
package final class PartialFile {
    /// Where the partial file lives.
    public var url: URL { URL(fileURLWithPath: path) }
    /// ``url``'s path.
    public let path: String
    private(set) var descriptor: Int32
    /// Bytes in the file.
    public internal(set) var length: Int64
    /// Whether the file has no name until its commit (see `createUnnamed(standingFor:mark:)`);
    /// ``path`` is then where it will go.
    public let isUnnamed: Bool
    /// The `CommitMark` an unnamed file from the reserve still has to get (`writePendingMark()`).
    private var pendingMark: CommitMark?
    /// The reserve an unnamed file is reported to once named, and the directory it was made in.
    private var reserve: (UnnamedFileReserve, String)?
    /// The bytes of a small unnamed file not written yet (see ``holdBytes(expecting:)``).
    private var held: HeldBytes?
    /// The directory of an unnamed file not made yet (`deferredUnnamed`), until it is made.
    private var deferredDirectory: String?
    /// Where write-back was last started; see ``startWriteBack()``.
    var writeBackStart: Int64 = 0
    /// Bytes written at chosen offsets (`write(_:at:)`) since write-back last started.
    var positionalBytesSinceWriteBack: Int64 = 0
    /// Bytes written between two asynchronous write-back starts, `8 MiB`.
    static let writeBackChunk: Int64 = 8 << 20

    /// Creates a new, empty partial file with `O_RDWR|O_EXCL|O_NOFOLLOW`, mode 0600; read and
    /// write, as a checksum over segments written at chosen offsets re-reads the file.
    ///
    /// A leftover file of that name is removed first (a planted symlink is removed, never
    /// followed) only when it is `owner`'s (see `PartOwnership`); another's is left alone and
    /// the creation fails. With an owner, the new file carries its mark.
    public static func create(at url: URL, owner: CommitMark? = nil) throws(FerryError) -> PartialFile {
        try create(atPath: url.path, owner: owner)
    }

    /// ``create(at:owner:)`` for a path.
    public static func create(atPath path: String, owner: CommitMark? = nil) throws(FerryError) -> PartialFile {
        var fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 && errno == EEXIST {
            if let owner, !PartOwnership.of(path, owner: owner).isUsable(adoptingUnmarked: false) {
                throw .file(.alreadyExists(path))
            }
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .file(.from(errno: errno, path: path, operation: "replace"))
            }
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw .file(.from(errno: errno, path: path, operation: "create")) }
        // Best effort: where the file system keeps no attributes, nobody's .part has a mark.
        if let owner { PartOwnership.mark(fd, with: owner) }
        return PartialFile(path: path, descriptor: fd, length: 0)
    }

    /// Creates an unnamed file (`O_TMPFILE`) in the directory of `path`, the final file's
    /// path, that will carry `mark` as an extended attribute; its mode is the final one (0666
    /// less the umask), as nobody can open it before the commit names it. `nil` where the file
    /// system or the system cannot (no unnamed files, no user attributes, no `/proc`): use
    /// `create`.
    ///
    /// A file `reserve` has ready is taken when there is one (the mark is then written before
    /// the file is made durable, `writePendingMark()`); else one is made here, mark included.
    /// Once named, the file is reported to `reserve`, which makes another in its directory.
    static func createUnnamed(standingFor path: String, mark: CommitMark, reserve: UnnamedFileReserve? = nil) -> PartialFile? {
        guard unnamedFilesCanBeNamed else { return nil }
        let directory = directory(of: path)
        if let fd = reserve?.take(directory: directory) {
            let file = PartialFile(path: path, descriptor: fd, length: 0, isUnnamed: true, pendingMark: mark)
            file.reserve = reserve.map { ($0, directory) }
            return file
        }
        let fd = csystem_open_unnamed(directory, 0o666)
        guard fd >= 0 else { return nil }
        guard setMark(mark, on: fd) == 0 else {
            Glibc.close(fd)
            return nil
        }
        let file = PartialFile(path: path, descriptor: fd, length: 0, isUnnamed: true)
        file.reserve = reserve.map { ($0, directory) }
        return file
    }

    /// `deferredUnnamed(standingFor:mark:reserve:length:)` is an unnamed file of `length`
    /// bytes not made yet: its bytes are held in memory (`HeldBytes`), and the file is made
    /// (taken from `reserve`, else created) when they are written, which the completion thread
    /// does before the group sync (`writeHeldBytes()`). The engine thread, which every
    /// transfer waits for, then neither makes nor marks the file: that was a sixth of its time
    /// with 5,000 downloads of 16 KiB.
    ///
    /// Only in a directory where an unnamed file with its mark was named before
    /// (`UnnamedFileReserve.hasNamed(in:)`), so the file system is known to allow both; `nil`
    /// elsewhere or when the bytes cannot be held (`createUnnamed` then makes the file at once).
    static func deferredUnnamed(standingFor path: String, mark: CommitMark, reserve: UnnamedFileReserve, length: Int64) -> PartialFile? {
        guard unnamedFilesCanBeNamed, length <= HeldBytes.limit else { return nil }
        let directory = directory(of: path)
        guard reserve.hasNamed(in: directory), let held = HeldBytes(capacity: Int(length)) else { return nil }
        let file = PartialFile(path: path, descriptor: -1, length: 0, isUnnamed: true, pendingMark: mark)
        file.held = held
        file.deferredDirectory = directory
        file.reserve = (reserve, directory)
        return file
    }

    /// `directory(of:)` is the directory part of `path` ("." when it has none).
    private static func directory(of path: String) -> String {
        // Searched on the bytes: a Character search costs a grapheme break check per step.
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "."
        return slash.isEmpty ? "/" : slash
    }

    /// `makeDeferredFile()` makes the unnamed file of `deferredUnnamed` (once). When the
    /// directory no longer allows it, the reserve forgets the directory, so the next downloads
    /// there make their files at once, and the error ends this attempt.
    private func makeDeferredFile() throws(FerryError) {
        guard descriptor < 0, let directory = deferredDirectory else { return }
        let fd = reserve?.0.take(directory: directory) ?? csystem_open_unnamed(directory, 0o666)
        guard fd >= 0 else {
            let code = errno
            reserve?.0.forget(directory)
            throw .file(.from(errno: code, path: path, operation: "create"))
        }
        deferredDirectory = nil
        descriptor = fd
    }

    /// `setMark(_:on:)` writes `mark` as the file's `CommitMark` attribute; 0, or -1 with `errno`.
    private static func setMark(_ mark: CommitMark, on fd: Int32) -> Int32 {
        mark.value.withCString { value in
            csystem_set_attribute(fd, CommitMark.name, value, strlen(value))
        }
    }

    /// `writePendingMark()` writes the mark of an unnamed file taken from the reserve, once;
    /// `nil` when it is written (or there is none to write), else the error. Called before the
    /// file is made durable, so the mark is durable with it, and again before it is named.
    func writePendingMark() -> FerryError? {
        guard let mark = pendingMark else { return nil }
        do throws(FerryError) {
            try makeDeferredFile()
        } catch {
            return error
        }
        guard PartialFile.setMark(mark, on: descriptor) == 0 else {
            let code = errno
            if let (reserve, directory) = reserve { reserve.forget(directory) }
            return .file(.from(errno: code, path: path, operation: "mark"))
        }
        pendingMark = nil
        return nil
    }

    /// Whether `/proc/self/fd` exists, through which an unnamed file gets its name.
    private static let unnamedFilesCanBeNamed = access("/proc/self/fd", X_OK) == 0

    init(path: String, descriptor: Int32, length: Int64, isUnnamed: Bool = false, pendingMark: CommitMark? = nil) {
        self.path = path
        self.descriptor = descriptor
        self.length = length
        self.isUnnamed = isUnnamed
        self.pendingMark = pendingMark
    }

    deinit {
        close()
    }

    /// `holdBytes(expecting:)` keeps the bytes of a fresh unnamed file of `length` bytes in
    /// memory (`HeldBytes`, when it is small enough and the process's budget has room) until
    /// the file is made durable, committed or read: a crash loses an unnamed file's bytes
    /// either way, and the engine thread, which writes the bytes as they come, then only
    /// copies them. Failing to write them is reported by whatever writes them
    /// (`writeHeldBytes()`), as a failed write would have been.
    func holdBytes(expecting length: Int64) {
        guard isUnnamed, self.length == 0, held == nil else { return }
        held = HeldBytes(capacity: Int(length))
    }

    /// `writeHeldBytes()` writes the bytes held in memory, if any, and lets their memory go.
    func writeHeldBytes() throws(FerryError) {
        guard let held else { return }
        try makeDeferredFile()
        self.held = nil
        defer { held.release() }
        if let code = SystemCall.writeAll(descriptor, held.bytes) {
            throw .file(.from(errno: code, path: path, operation: "write"))
        }
    }

    /// Appends `bytes`, retrying short writes and `EINTR`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        if let held {
            if held.append(bytes) {
                length += Int64(bytes.count)
                return
            }
            // More bytes than the length announced: what was held goes first.
            try writeHeldBytes()
        }
        if let code = SystemCall.writeAll(descriptor, bytes) {
            throw .file(.from(errno: code, path: path, operation: "write"))
        }
        length += Int64(bytes.count)
        if length - writeBackStart >= Self.writeBackChunk { startWriteBack() }
    }

    /// Asks the kernel to start writing the newest bytes to disk without waiting for it, so
    /// that the `fdatasync` before the final rename finds little left to do and durability
    /// costs almost no wall time (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`).
    private func startWriteBack() {
        _ = csystem_start_writeback(descriptor, writeBackStart, length - writeBackStart)
        writeBackStart = length
    }

    /// Flushes the file's data to the disk (`fdatasync`).
    public func synchronize() throws(FerryError) {
        try writeHeldBytes()
        if SystemCall.retrying({ fdatasync(descriptor) }) != 0 {
            throw .file(.from(errno: errno, path: path, operation: "sync"))
        }
    }

    /// Closes the file (idempotent); bytes still held in memory are dropped.
    public func close() {
        held?.release()
        held = nil
        deferredDirectory = nil
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Removes the partial file (an unnamed one disappears when closed).
    public func discard() {
        close()
        if !isUnnamed { unlink(path) }
    }

    /// Gives the file its final name and returns it: `destination.fileURL` when free (or when
    /// `overwrite` is set), else the first free `name.N.ext`. Never replaces a file otherwise.
    /// With `keepingPartialName` the `.part` stays linked to the final file (when hard links
    /// exist) until the caller has recorded the completion and removes it, so a kill before
    /// that record leaves a trace `DownloadDestination.recoverCommittedFile()` recognises;
    /// `false` by default.
    public func commit(to destination: DownloadDestination, keepingPartialName: Bool = false) throws(FerryError) -> URL {
        try writeHeldBytes()
        guard descriptor >= 0 else { throw .file(.io(path: path, errno: EBADF, operation: "commit")) }
        if isUnnamed { return try commitUnnamed(to: destination) }
        // The final name is given to the open file, never to whatever the path holds now.
        fchmod(descriptor, 0o666 & ~FileModeMask.current)
        defer { close() }
        if destination.overwrite {
            let target = destination.fileURL.path
            let staging = destination.filePath(named: ".\(destination.fileName).ferry-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            if csystem_link_descriptor(descriptor, staging) == 0 {
                guard rename(staging, target) == 0 else {
                    let code = errno
                    unlink(staging)
                    throw .file(.from(errno: code, path: target, operation: "rename to"))
                }
                if !keepingPartialName { removeOwnName() }
                return destination.fileURL
            }
            guard errno == EPERM || errno == EOPNOTSUPP || errno == EXDEV, isStillAtPath else {
                throw .file(.from(errno: errno, path: target, operation: "create"))
            }
            guard rename(path, target) == 0 else {
                throw .file(.from(errno: errno, path: target, operation: "rename to"))
            }
            return destination.fileURL
        }
        for candidate in destination.commitPaths {
            if csystem_link_descriptor(descriptor, candidate) == 0 {
                if !keepingPartialName { removeOwnName() }
                return URL(fileURLWithPath: candidate, isDirectory: false)
            }
            let code = errno
            if code == EEXIST { continue }
            if code == EPERM || code == EOPNOTSUPP || code == EXDEV {
                // No hard links here: check-then-rename (of this very file) is the best this file system allows.
                if access(candidate, F_OK) == 0 { continue }
                guard isStillAtPath else { throw .file(.io(path: path, errno: ESTALE, operation: "commit (the file was replaced)")) }
                guard rename(path, candidate) == 0 else {
                    throw .file(.from(errno: errno, path: candidate, operation: "rename to"))
                }
                return URL(fileURLWithPath: candidate, isDirectory: false)
            }
            throw .file(.from(errno: code, path: candidate, operation: "create"))
        }
        throw .file(.alreadyExists(destination.fileURL.path))
    }

    /// Whether ``path`` still names the open file (same device and inode, not a symlink).
    private var isStillAtPath: Bool {
        var open = stat()
        var named = stat()
        return fstat(descriptor, &open) == 0 && lstat(path, &named) == 0
            && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Removes ``path`` when it still names the open file (another's file there is left alone).
    private func removeOwnName() {
        if isStillAtPath { unlink(path) }
    }

    /// `commitUnnamed(to:)` is `commit(to:)` for an unnamed file: one link to the first free
    /// name (`name`, then `name.N.ext`), never replacing a file.
    private func commitUnnamed(to destination: DownloadDestination) throws(FerryError) -> URL {
        defer { close() }
        if let error = writePendingMark() { throw error }
        for candidate in destination.commitPaths {
            if csystem_link_descriptor(descriptor, candidate) == 0 {
                if let (reserve, directory) = reserve { reserve.used(directory) }
                return URL(fileURLWithPath: candidate, isDirectory: false)
            }
            if errno == EEXIST { continue }
            throw .file(.from(errno: errno, path: candidate, operation: "create"))
        }
        throw .file(.alreadyExists(destination.fileURL.path))
    }
}

/// `FileModeMask` reads the process's umask without changing it.
enum FileModeMask {
    /// The umask, read once from `/proc/self/status` (022 when it cannot be read).
    static let current: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0o022 }
        for line in status.split(separator: "\n") where line.hasPrefix("Umask:") {
            let value = line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces)
            if let mask = mode_t(value, radix: 8) { return mask }
        }
        return 0o022
    }()
}
