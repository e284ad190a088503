import CFerrySystem
import Glibc

/// `PartOwnership` says whose a `.part` file is, by the owner mark it carries.
///
/// Every `.part` a download with an owner (`DownloadPolicy.owner`: its journal and task)
/// creates carries the owner's value in the `user.ferry.owner` attribute. A `.part` with
/// another owner, a symlink or anything but a regular file was made by another process or
/// tool: it is never removed, reopened, adopted or taken for a committed file; the download
/// uses the next name instead (`NAME.1.EXT.part`, ...). A `.part` with no mark at all is
/// adopted (and marked) only to resume bytes the journal recorded durable at that name (a
/// `.part` an earlier version made); a planted file or hard link is never taken for a
/// committed download. Where the file system keeps no user attributes the owner cannot be
/// told, and the `.part` at the name is taken as the download's own.
enum PartOwnership: Equatable {
    /// No file at that path.
    case absent
    /// The file carries the owner's mark.
    case ours
    /// A regular file without any owner mark.
    case unmarked
    /// Something else is there: another owner's mark, a symlink, a directory.
    case foreign
    /// A regular file on a file system without user attributes.
    case unknowable

    /// The attribute's name, `user.ferry.owner`.
    static let attribute = "user.ferry.owner"

    /// The ownership of the file at `path` (a symlink is never followed) for `owner`.
    static func of(_ path: String, owner: CommitMark) -> PartOwnership {
        var status = stat()
        guard lstat(path, &status) == 0 else { return errno == ENOENT ? .absent : .foreign }
        guard status.st_mode & S_IFMT == S_IFREG else { return .foreign }
        var buffer = [UInt8](repeating: 0, count: 128)
        let size = buffer.withUnsafeMutableBytes { bytes in
            csystem_read_attribute(path, attribute, bytes.baseAddress, bytes.count)
        }
        if size < 0 {
            switch errno {
            case ENODATA: return .unmarked
            case ENOTSUP: return .unknowable
            default: return .foreign
            }
        }
        return String(decoding: buffer.prefix(size), as: UTF8.self) == owner.value ? .ours : .foreign
    }

    /// Whether a download of the owner may use (reopen, replace or remove) the file; an
    /// unmarked one only when `adoptingUnmarked` (it resumes bytes recorded at that name).
    func isUsable(adoptingUnmarked: Bool) -> Bool {
        switch self {
        case .absent, .ours, .unknowable: true
        case .unmarked: adoptingUnmarked
        case .foreign: false
        }
    }

    /// `mark(_:with:)` gives the open file `fd` the owner's mark; 0, or -1 with `errno`
    /// (`ENOTSUP` where the file system keeps no attributes).
    @discardableResult
    static func mark(_ fd: Int32, with owner: CommitMark) -> Int32 {
        owner.value.withCString { value in
            csystem_set_attribute(fd, attribute, value, strlen(value))
        }
    }
}

extension DownloadDestination {
    /// `partialFilePath(for:resuming:)` is the `.part` a download owned by `owner` uses:
    /// `NAME.part` unless another's `.part` is there, then `NAME.1.EXT.part`,
    /// `NAME.2.EXT.part`, ... (the first that is free or its own; see `PartOwnership`, an
    /// unmarked one only when `resuming` recorded bytes). Without an owner it is
    /// ``partialFilePath``.
    package func partialFilePath(for owner: CommitMark?, resuming: Bool = false) -> String {
        guard let owner else { return partialFilePath }
        for counter in 0...10_000 {
            let name = counter == 0 ? fileName : SafeFileName.numbered(fileName, counter)
            let path = filePath(named: name + ".part")
            if PartOwnership.of(path, owner: owner).isUsable(adoptingUnmarked: resuming) { return path }
        }
        return partialFilePath
    }

    /// `removePartialFile(at:owner:)` removes the `.part` at `path` when it is `owner`'s (or
    /// its owner cannot be told), never another's; returns whether it did.
    @discardableResult
    package static func removePartialFile(at path: String, owner: CommitMark?) -> Bool {
        if let owner, !PartOwnership.of(path, owner: owner).isUsable(adoptingUnmarked: false) { return false }
        return unlink(path) == 0
    }
}
