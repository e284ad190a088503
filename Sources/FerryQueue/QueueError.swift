import Glibc

/// `QueueError` is the one error type thrown by FerryQueue, with a nested reason per area.
///
/// Messages never contain secrets: URLs are shown with their user info masked and header
/// values are never included.
public enum QueueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `stateDirectory` errors come from resolving or creating the state directory.
    case stateDirectory(StateDirectoryReason)
    /// `lock` errors come from taking the engine lock.
    case lock(LockReason)
    /// `journal` errors come from opening, reading or writing the journal.
    case journal(JournalReason)
    /// `input` errors come from validating user input (URLs, headers, options, batch files).
    case input(InputReason)

    /// `StateDirectoryReason` says why the state directory could not be used.
    public enum StateDirectoryReason: Sendable, Hashable {
        /// `noHomeDirectory` means neither an explicit directory nor `HOME` was available.
        case noHomeDirectory
        /// `notADirectory` means something other than a directory exists at the path.
        case notADirectory(path: String)
        /// `cannotCreate` means `mkdir` failed with the given `errno`.
        case cannotCreate(path: String, errno: Int32)
        /// `cannotSetPermissions` means `chmod` to 0700 failed with the given `errno`.
        case cannotSetPermissions(path: String, errno: Int32)
        /// `notOwned` means the directory, or a file in it, belongs to another user (`owner`):
        /// that user could read or replace the journal and `control.sock`, so it is refused,
        /// as ssh refuses such a `~/.ssh`.
        case notOwned(path: String, owner: UInt32)
    }

    /// `LockReason` says why the engine lock could not be taken.
    public enum LockReason: Sendable, Hashable {
        /// `heldByAnotherProcess` means another process holds the lock; `pid` is `nil` when
        /// it could not be read from the lock file.
        case heldByAnotherProcess(pid: Int32?)
        /// `cannotOpen` means the lock file could not be opened or created.
        case cannotOpen(path: String, errno: Int32)
        /// `failed` means `flock` or writing the pid failed with the given `errno`.
        case failed(path: String, errno: Int32)
    }

    /// `JournalReason` says what went wrong with the journal.
    public enum JournalReason: Sendable, Hashable {
        /// `newerSchema` means the journal was written by a newer Ferry; it is left untouched.
        case newerSchema(path: String, found: Int, supported: Int)
        /// `unreadable` means the journal is corrupt or not a Ferry journal and recovery was
        /// not allowed (see `Journal.CorruptionPolicy`).
        case unreadable(path: String, detail: String)
        /// `cannotMoveAside` means an unreadable journal could not be renamed.
        case cannotMoveAside(path: String, errno: Int32)
        /// `diskFull` means SQLite reported `SQLITE_FULL` or the file system `ENOSPC`.
        case diskFull(path: String)
        /// `readOnly` means the journal or its directory cannot be written.
        case readOnly(path: String)
        /// `permissionDenied` means the journal file cannot be opened by this user.
        case permissionDenied(path: String)
        /// `busy` means another process kept the journal locked past the busy timeout.
        case busy(path: String)
        /// `corrupt` means SQLite found corruption while Ferry was running.
        case corrupt(path: String)
        /// `io` means any other file or SQLite failure, with SQLite's or the system's message.
        case io(path: String, detail: String)
        /// `taskNotFound` means no task has the given id.
        case taskNotFound(TaskID)
        /// `invalidTransition` means the state table forbids the requested change.
        case invalidTransition(TaskID, from: TaskState, to: TaskState)
        /// `invalidTask` means a task cannot be stored as given (for example, no URL).
        case invalidTask(String)
    }

    /// `InputReason` says why user input was rejected.
    public enum InputReason: Sendable, Hashable {
        /// `invalidURL` carries the masked URL and what is wrong with it.
        case invalidURL(String, detail: String)
        /// `invalidHeader` carries what is wrong with a `Name: value` header (never the value).
        case invalidHeader(detail: String)
        /// `invalidChecksum` carries the offending `ALGO=HEX` text.
        case invalidChecksum(String)
        /// `invalidRate` carries a rate that is not a number with an optional K, M or G suffix.
        case invalidRate(String)
        /// `invalidOption` carries an option name and what is wrong with its value.
        case invalidOption(name: String, detail: String)
        /// `optionWithoutEntry` means an indented option line came before any URI line.
        case optionWithoutEntry
        /// `malformedOption` means an option line is not `key=value`.
        case malformedOption
        /// `invalidUTF8` means a line is not valid UTF-8.
        case invalidUTF8
        /// `lineTooLong` means a line exceeded `BatchInputReader.maximumLineLength` bytes.
        case lineTooLong(limit: Int)
        /// `cannotOpen` means the batch file could not be opened.
        case cannotOpen(path: String, errno: Int32)
        /// `readFailed` means reading the batch input failed with the given `errno`.
        case readFailed(errno: Int32)
        /// `corruptGzip` means the gzip stream is damaged or truncated.
        case corruptGzip(detail: String)
        /// `invalidMetalink` means a Metalink a batch entry names cannot be read or is refused.
        case invalidMetalink(path: String, detail: String)
    }

    /// `description` is the human message, for example
    /// "another ferry (pid 42) is running this queue".
    public var description: String {
        switch self {
        case .stateDirectory(let reason): return reason.message
        case .lock(let reason): return reason.message
        case .journal(let reason): return reason.message
        case .input(let reason): return reason.message
        }
    }
}

/// `systemMessage(_:)` is `strerror` for an `errno`, as a Swift string.
func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}

extension QueueError.StateDirectoryReason {
    var message: String {
        switch self {
        case .noHomeDirectory:
            return "cannot find the state directory: HOME is not set (use --state-dir or FERRY_STATE_DIR)"
        case .notADirectory(let path):
            return "state directory \(path) exists and is not a directory"
        case .cannotCreate(let path, let code):
            return "cannot create state directory \(path): \(systemMessage(code))"
        case .cannotSetPermissions(let path, let code):
            return "cannot restrict state directory \(path) to its owner: \(systemMessage(code))"
        case .notOwned(let path, let owner):
            return "refusing \(path): it is owned by uid \(owner), not by uid \(geteuid()) who runs ferry; "
                + "another user could read or replace the journal and control.sock (use a directory you own)"
        }
    }
}

extension QueueError.LockReason {
    var message: String {
        switch self {
        case .heldByAnotherProcess(let pid?):
            return "another ferry (pid \(pid)) is running this queue"
        case .heldByAnotherProcess(nil):
            return "another ferry is running this queue"
        case .cannotOpen(let path, let code):
            return "cannot open lock file \(path): \(systemMessage(code))"
        case .failed(let path, let code):
            return "cannot lock \(path): \(systemMessage(code))"
        }
    }
}

extension QueueError.JournalReason {
    var message: String {
        switch self {
        case .newerSchema(let path, let found, let supported):
            return "journal \(path) has schema version \(found), newer than the \(supported) this ferry "
                + "understands; it was left untouched (use a newer ferry or another --state-dir)"
        case .unreadable(let path, let detail):
            return "journal \(path) is unreadable: \(detail)"
        case .cannotMoveAside(let path, let code):
            return "journal \(path) is unreadable and could not be moved aside: \(systemMessage(code))"
        case .diskFull(let path):
            return "cannot write journal \(path): disk full"
        case .readOnly(let path):
            return "cannot write journal \(path): read-only file or file system"
        case .permissionDenied(let path):
            return "cannot open journal \(path): permission denied"
        case .busy(let path):
            return "journal \(path) is busy (locked by another process)"
        case .corrupt(let path):
            return "journal \(path) is corrupt"
        case .io(let path, let detail):
            return "journal \(path): \(detail)"
        case .taskNotFound(let id):
            return "no task \(id)"
        case .invalidTransition(let id, let from, let to):
            return "task \(id) cannot go from \(from) to \(to)"
        case .invalidTask(let detail):
            return "invalid task: \(detail)"
        }
    }
}

extension QueueError.InputReason {
    var message: String {
        switch self {
        case .invalidURL(let url, let detail):
            return "invalid URL '\(url)': \(detail)"
        case .invalidHeader(let detail):
            return "invalid header: \(detail)"
        case .invalidChecksum(let text):
            return "invalid checksum '\(text)' (expected ALGO=HEX with md5, sha-1, sha-256 or sha-512)"
        case .invalidRate(let text):
            return "invalid rate '\(text)' (expected a number of bytes with an optional K, M or G suffix, such as 500K or 1.5M)"
        case .invalidOption(let name, let detail):
            return "invalid value for option '\(name)': \(detail)"
        case .optionWithoutEntry:
            return "option line without a URI line before it"
        case .malformedOption:
            return "option line is not key=value"
        case .invalidUTF8:
            return "line is not valid UTF-8"
        case .lineTooLong(let limit):
            return "line is longer than \(limit) bytes"
        case .cannotOpen(let path, let code):
            return "cannot open \(path): \(systemMessage(code))"
        case .readFailed(let code):
            return "cannot read input: \(systemMessage(code))"
        case .corruptGzip(let detail):
            return "gzip input is damaged: \(detail)"
        case .invalidMetalink(let path, let detail):
            return "\(path): \(detail)"
        }
    }
}
