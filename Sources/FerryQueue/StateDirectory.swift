import FerryKit
import Glibc

/// `StateDirectory` is the directory that holds the journal, the log and the engine lock.
///
/// It is chosen by `resolvePath(argument:environment:)` and made ready (created, mode 0700)
/// by `init(creatingAt:)`. Only the owner can read it (fault catalogue 23).
public struct StateDirectory: Sendable, Hashable {
    /// `journalFileName` is the journal's file name inside the directory.
    public static let journalFileName = "journal.sqlite"
    /// `logFileName` is the log file's name inside the directory.
    public static let logFileName = "ferry.log"
    /// `lockFileName` is the engine lock's file name inside the directory.
    public static let lockFileName = "engine.lock"

    /// `path` is the directory, as resolved.
    public let path: String

    /// `journalPath` is the SQLite journal (`journal.sqlite`).
    public var journalPath: String { child(StateDirectory.journalFileName) }
    /// `logPath` is the log file (`ferry.log`).
    public var logPath: String { child(StateDirectory.logFileName) }
    /// `lockPath` is the engine lock file (`engine.lock`).
    public var lockPath: String { child(StateDirectory.lockFileName) }

    /// `resolvePath(argument:environment:)` picks the directory: `argument` (`--state-dir`),
    /// else `FERRY_STATE_DIR`, else `$XDG_STATE_HOME/ferry`, else `$HOME/.local/state/ferry`.
    ///
    /// Empty values count as unset. A relative `XDG_STATE_HOME` is ignored, as the XDG base
    /// directory specification requires. Nothing is read from the process environment:
    /// `environment` is passed in (usually `ProcessInfo.processInfo.environment`).
    public static func resolvePath(argument: String?, environment: [String: String]) throws(QueueError) -> String {
        if let argument, !argument.isEmpty {
            return argument
        }
        if let explicit = environment["FERRY_STATE_DIR"], !explicit.isEmpty {
            return explicit
        }
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            return join(stateHome, "ferry")
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw .stateDirectory(.noHomeDirectory)
        }
        return join(join(home, ".local/state"), "ferry")
    }

    /// `prepare(argument:environment:)` resolves the path and creates the directory.
    public static func prepare(argument: String?, environment: [String: String]) throws(QueueError) -> StateDirectory {
        try StateDirectory(creatingAt: resolvePath(argument: argument, environment: environment))
    }

    /// `init(creatingAt:)` creates `path` and any missing parents with mode 0700, and removes
    /// group and other permissions from an existing directory owned by this user.
    ///
    /// A directory owned by someone else (a `/tmp/...` made first by another user), or holding
    /// a journal or lock file of someone else, is refused with `.notOwned`, as ssh does.
    public init(creatingAt path: String) throws(QueueError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                // umask may have removed bits; make it exactly 0700.
                if chmod(prefix, 0o700) != 0 {
                    throw .stateDirectory(.cannotSetPermissions(path: prefix, errno: errno))
                }
                continue
            }
            let code = errno
            guard code == EEXIST else {
                throw .stateDirectory(.cannotCreate(path: prefix, errno: code))
            }
            guard let status = SystemCall.fileStatus(prefix) else {
                throw .stateDirectory(.cannotCreate(path: prefix, errno: errno))
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw .stateDirectory(.notADirectory(path: prefix))
            }
        }
        guard let status = SystemCall.fileStatus(path) else {
            throw .stateDirectory(.cannotCreate(path: path, errno: errno))
        }
        guard status.st_uid == geteuid() else {
            throw .stateDirectory(.notOwned(path: path, owner: status.st_uid))
        }
        // The files the engine trusts must be this user's too (a file made in the directory
        // before it was ours, or by root for another user).
        for name in [StateDirectory.journalFileName, StateDirectory.lockFileName] {
            let file = StateDirectory.join(path, name)
            if let fileStatus = SystemCall.fileStatus(file), fileStatus.st_uid != geteuid() {
                throw .stateDirectory(.notOwned(path: file, owner: fileStatus.st_uid))
            }
        }
        if status.st_mode & 0o077 != 0 {
            if chmod(path, status.st_mode & 0o700) != 0 {
                throw .stateDirectory(.cannotSetPermissions(path: path, errno: errno))
            }
        }
        self.path = path
    }

    /// `putLockPath` is the file whose bytes `ferry put` locks, one per resumable upload.
    public var putLockPath: String { child("put.lock") }

    private func child(_ name: String) -> String {
        StateDirectory.join(path, name)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
