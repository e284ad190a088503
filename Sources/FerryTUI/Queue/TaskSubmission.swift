import FerryKit
import FerryQueue
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `TaskSubmission` turns what an add dialog produced into a journal task, checking what
/// only the application can check: the URL as the queue accepts it, that the directory
/// exists and is writable, that the name is a safe file name, that no unfinished task
/// already saves to the same file, and that every upload file can still be read.
///
/// A problem names the dialog field to fix (`FieldProblem.field`), so the dialog can be
/// reopened on it; nothing is inserted when any check fails.
enum TaskSubmission {
    /// `download(_:isInUse:)` checks a download request and makes its task; `isInUse` tells
    /// whether an unfinished download already queued saves to a file.
    static func download(_ request: DownloadRequest, isInUse: (String) -> Bool) throws(FieldProblem) -> NewTask {
        let url = try transferURL(request.url)
        let directory = absolute(request.directory)
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw FieldProblem("No such directory: \(directory)", field: 1)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw FieldProblem("Not a directory: \(directory)", field: 1)
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw FieldProblem("Cannot write to \(directory)", field: 1)
        }
        if let name = request.name, SafeFileName.sanitize(name) != name {
            throw FieldProblem("Not a safe file name: \(name)", field: 2)
        }
        var checksum: Checksum?
        if let typed = request.checksum {
            do {
                checksum = try Checksum(parsing: typed)
            } catch {
                throw FieldProblem(error.description, field: 3)
            }
        }
        let name = request.name ?? URL(string: url.string).map(SafeFileName.fromURL) ?? SafeFileName.fallback
        let destination = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        if isInUse(destination) {
            throw FieldProblem("Another task already saves to \(destination); choose another name", field: 2)
        }
        return NewTask(spec: TaskSpec(
            urls: [url],
            destinationDirectory: directory,
            requestedName: request.name,
            checksum: checksum,
            options: TaskOptions(maxDownloadLimit: request.speedLimit, connections: request.connections)
        ))
    }

    /// `upload(_:)` checks an upload request and makes its task: a multipart POST with each
    /// file sent as a `file` part and the fields in the order typed.
    static func upload(_ request: UploadRequest) throws(FieldProblem) -> NewTask {
        let url = try transferURL(request.url)
        let files = request.files.map(absolute)
        for path in files {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 else {
                throw FieldProblem("Cannot read file: \(path)", field: 1)
            }
        }
        var upload = UploadSpec(
            method: "POST",
            fields: request.fields,
            files: files.map { UploadSpec.File(fieldName: "file", path: $0) }
        )
        upload.resumable = request.resumable
        return NewTask(spec: TaskSpec(urls: [url], upload: upload))
    }

    /// `absolute(_:)` resolves a relative path against the current directory, so the task
    /// means the same file whichever directory the engine later runs in.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let base = FileManager.default.currentDirectoryPath
        let joined = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: base, isDirectory: true))
        return joined.standardizedFileURL.path
    }

    private static func transferURL(_ text: String) throws(FieldProblem) -> TransferURL {
        do {
            return try TransferURL(validating: text)
        } catch {
            throw FieldProblem(error.description, field: 0)
        }
    }
}
