import FerryKit
import Foundation

/// `DownloadDirectory` picks and prepares the directory downloads are saved in.
enum DownloadDirectory {
    /// `--dir`, else `$XDG_DOWNLOAD_DIR`, else `~/Downloads` if it exists, else the current directory;
    /// created if missing and checked writable, so a bad directory fails before anything is downloaded.
    static func prepare(_ option: String?, environment: [String: String]) throws(FerryError) -> URL {
        let manager = FileManager.default
        let chosen: String
        if let option, !option.isEmpty {
            chosen = option
        } else if let xdg = environment["XDG_DOWNLOAD_DIR"], !xdg.isEmpty {
            chosen = xdg
        } else if let home = environment["HOME"], !home.isEmpty, isDirectory(home + "/Downloads") {
            chosen = home + "/Downloads"
        } else {
            chosen = manager.currentDirectoryPath
        }
        let expanded = (chosen as NSString).expandingTildeInPath
        let url = URL(fileURLWithPath: expanded, isDirectory: true).standardizedFileURL
        var isDir: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw .file(.notADirectory(url.path)) }
        } else {
            do {
                try manager.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                // Find the reason with the system call, to say it plainly.
                if mkdir(url.path, 0o755) != 0 && errno != EEXIST {
                    throw .file(.from(errno: errno, path: url.path, operation: "create directory"))
                }
                throw .file(.io(path: url.path, errno: EIO, operation: "create directory"))
            }
        }
        guard access(url.path, W_OK | X_OK) == 0 else {
            throw .file(.permissionDenied(url.path))
        }
        return url
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// `prepareForCommand(_:)` is ``prepare(_:environment:)`` with this process's environment,
    /// for a command's `--dir`: a bad directory is reported on stderr and ends the command
    /// with its exit status.
    static func prepareForCommand(_ option: String?) throws -> URL {
        do throws(FerryError) {
            return try prepare(option, environment: ProcessInfo.processInfo.environment)
        } catch {
            Console.error(error.description)
            throw ExitStatus(code: error.exitStatus)
        }
    }
}
