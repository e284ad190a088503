import FerryKit
import FerryQueue
import Foundation

/// `TaskRequest` is a new task as `ferry.add` carries it: aria2's `addUri` shape,
/// `{"uris": [...], "options": {...}}` with the options of `AddOptions`, and for an upload an
/// `upload` object: `{"method": "POST", "fields": [{"name", "value"}], "files": [{"field",
/// "path", "filename", "type"}], "body-file": PATH}` (absolute paths of readable files).
///
/// The client (`ferry add`, `ferry get`) writes it from a `NewTask`; the daemon reads it back
/// with the same checks as `aria2.addUri`. Headers travel as given (the socket is the
/// user's own); answers never show them unmasked.
public enum TaskRequest {
    /// `json(_:)` is the request for `task`.
    public static func json(_ task: NewTask) -> JSONValue {
        let spec = task.spec
        var options: [String: JSONValue] = [:]
        if let directory = spec.destinationDirectory { options["dir"] = .string(directory) }
        if let name = spec.requestedName { options["out"] = .string(name) }
        if !spec.headers.isEmpty { options["header"] = .array(spec.headers.map { .string("\($0.name): \($0.value)") }) }
        if let checksum = spec.checksum { options["checksum"] = .string(checksum.description) }
        if let limit = spec.options.maxDownloadLimit { options["max-download-limit"] = .string(String(limit)) }
        if let retries = spec.options.retries { options["retries"] = .string(String(retries)) }
        if let connections = spec.options.connections { options["split"] = .string(String(connections)) }
        if let size = spec.options.minSplitSize { options["min-split-size"] = .string(String(size)) }
        if task.startsPaused { options["pause"] = "true" }
        if spec.overwrite { options["allow-overwrite"] = "true" }
        if spec.useContentDisposition { options["content-disposition"] = "true" }
        if task.priority != 0 { options["priority"] = .string(String(task.priority)) }
        for (key, value) in connectionOptions(spec.connection) { options[key] = value }
        var request: [String: JSONValue] = ["uris": .array(spec.urls.map { .string($0.string) }), "options": .object(options)]
        if let upload = spec.upload { request["upload"] = json(upload) }
        if let pieces = task.pieceHashes { request["pieces"] = .string(pieces.encoded) }
        return .object(request)
    }

    /// `connectionOptions(_:)` are the options that carry `settings` (the password and the
    /// pins as they are: the socket is the user's own), a list where an option has several values.
    public static func connectionOptions(_ settings: ConnectionSettings) -> [String: JSONValue] {
        var options: [String: JSONValue] = [:]
        for option in settings.options(revealingSecrets: true) {
            options[option.key] = option.values.count == 1 ? .string(option.values[0]) : .array(option.values.map { .string($0) })
        }
        return options
    }

    /// `task(_:defaultDirectory:)` reads and checks a request; the first problem is the
    /// error. A download without `dir` goes to `defaultDirectory` (see `AddOptions`).
    static func task(_ value: JSONValue, defaultDirectory: String? = nil, origin: RPCOrigin = .local) throws(RPCError) -> NewTask {
        guard let members = value.objectValue else {
            throw RPCError.invalidParams("each task must be an object with uris and options")
        }
        guard let list = members["uris"]?.arrayValue, !list.isEmpty else {
            throw RPCError.invalidParams("a task's uris must be a non-empty list")
        }
        let urls = try AddOptions.urls(list)
        let options = try AddOptions(members["options"]?.objectValue ?? [:], origin: origin)
        let upload = try members["upload"].map { value throws(RPCError) in try self.upload(value) }
        if upload != nil, urls.count != 1 {
            throw RPCError.failed("an upload has one URL")
        }
        var task = options.task(urls: urls, upload: upload, defaultDirectory: defaultDirectory)
        if let text = members["pieces"] {
            // The piece hashes of a file from several sources (`PieceHashes.encoded`).
            guard let pieces = text.stringValue.flatMap(PieceHashes.decoded) else {
                throw RPCError.invalidParams("pieces must be piece hashes as algorithm:length:hash,...")
            }
            task.pieceHashes = pieces
        }
        return task
    }

    private static func json(_ upload: UploadSpec) -> JSONValue {
        var object: [String: JSONValue] = [
            "method": .string(upload.method),
            "fields": .array(upload.fields.map { ["name": .string($0.name), "value": .string($0.value)] }),
            "files": .array(upload.files.map { file in
                var part: [String: JSONValue] = ["field": .string(file.fieldName), "path": .string(file.path)]
                if let name = file.filename { part["filename"] = .string(name) }
                if let type = file.mimeType { part["type"] = .string(type) }
                return .object(part)
            }),
        ]
        if let body = upload.bodyFile { object["body-file"] = .string(body) }
        if let resumable = upload.resumable { object["resumable"] = .string(resumable) }
        return .object(object)
    }

    private static func upload(_ value: JSONValue) throws(RPCError) -> UploadSpec {
        guard let members = value.objectValue else { throw RPCError.invalidParams("upload must be an object") }
        let method = members["method"]?.stringValue ?? "POST"
        guard !method.isEmpty, method.count <= 32, method.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw RPCError.failed("upload method must be letters, such as POST or PUT")
        }
        var upload = UploadSpec(method: method)
        for field in members["fields"]?.arrayValue ?? [] {
            guard let name = field.objectValue?["name"]?.stringValue, let text = field.objectValue?["value"]?.stringValue else {
                throw RPCError.invalidParams("upload fields must be objects with a name and a value")
            }
            upload.fields.append(UploadSpec.Field(name: name, value: text))
        }
        for file in members["files"]?.arrayValue ?? [] {
            guard let part = file.objectValue, let field = part["field"]?.stringValue, let path = part["path"]?.stringValue else {
                throw RPCError.invalidParams("upload files must be objects with a field and a path")
            }
            upload.files.append(UploadSpec.File(fieldName: field, path: try readableFile(path),
                                                filename: part["filename"]?.stringValue, mimeType: part["type"]?.stringValue))
        }
        if let body = members["body-file"] {
            guard let path = body.stringValue else { throw RPCError.invalidParams("upload body-file must be a path") }
            upload.bodyFile = try readableFile(path)
        }
        guard upload.fields.isEmpty && upload.files.isEmpty ? upload.bodyFile != nil : upload.bodyFile == nil else {
            throw RPCError.failed("an upload has form fields and files, or a body file, not both")
        }
        if let resumable = members["resumable"] {
            guard let mode = resumable.stringValue, ResumableUploadOptions.Mode(rawValue: mode) != nil else {
                throw RPCError.invalidParams("upload resumable must be auto, ietf or tus")
            }
            upload.resumable = mode
        }
        return upload
    }

    /// `readableFile(_:)` checks that `path` is absolute and names a readable regular file
    /// (a queued upload reads it again when it starts).
    private static func readableFile(_ path: String) throws(RPCError) -> String {
        var status = stat()
        guard path.hasPrefix("/"), !path.contains("\0"), stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              access(path, R_OK) == 0 else {
            throw RPCError.failed("no readable file at \(path)")
        }
        return path
    }
}
