import FerryKit
import Foundation
import Glibc

extension Scheduler {
    /// `hostKey(_:)` is the `host:port` a URL's transfer counts against for the per-host limit
    /// (the same key the session's own per-host limit uses).
    static func hostKey(_ url: TransferURL) -> String {
        HostKey.of(url.string)
    }

    /// `headers(_:)` converts a task's header fields (validated when added) for a `Request`.
    static func headers(_ fields: [HeaderField]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for field in fields {
            headers.add(name: field.name, value: field.value)
        }
        return headers
    }

    /// `uploadRequest(url:upload:headers:)` builds an upload's request: the raw body file, or
    /// a multipart form of its fields and files. Files are read again now, at the start of
    /// the attempt: a file that is gone fails the task. A form takes `boundary` when given (a
    /// resumable one's: every attempt sends the same bytes).
    static func uploadRequest(url: TransferURL, upload: UploadSpec, headers: [HeaderField], boundary: String? = nil) throws(FerryError) -> Request {
        let base = Request(url: try Request.validatedURL(url.string), method: HTTPMethod(rawValue: upload.method),
                           headers: Scheduler.headers(headers))
        if let bodyFile = upload.bodyFile {
            var request = base
            request.body = .file(URL(fileURLWithPath: bodyFile))
            return request
        }
        var form = try boundary.map { (boundary) throws(FerryError) in try MultipartFormData(boundary: boundary) } ?? MultipartFormData()
        for field in upload.fields {
            try form.appendPart(value: field.value, name: field.name)
        }
        for file in upload.files {
            let fileURL = URL(fileURLWithPath: file.path)
            let fileName = file.filename ?? fileURL.lastPathComponent
            try form.appendPart(fileURL: fileURL, name: file.fieldName, fileName: fileName,
                                mimeType: file.mimeType ?? MIMETypes.type(forFileName: fileName))
        }
        return form.applied(to: base)
    }

    /// `destination(for:url:)` is where a download goes: its directory (or the default) and
    /// the file name recorded when it first started (`TaskRecord.fileName`, see
    /// `claimFileNames(_:)`); without one (or while another running download writes there),
    /// its requested name (or the first mirror's, so every mirror writes the same file),
    /// numbered when a running download already writes there.
    /// `parsed` is `url` already parsed, when the caller has it.
    func destination(for record: TaskRecord, url: TransferURL, parsed: URL? = nil) throws(FerryError) -> DownloadDestination {
        var destination = directoryPrototype(record.spec.destinationDirectory ?? configuration.defaultDirectory)
        let wanted = try wantedName(for: record, url: url, parsed: parsed)
        // `--overwrite` replaces only the name asked for: a numbered name (another task writes
        // the one asked for) takes the next free name and replaces nothing.
        if let fileName = record.fileName {
            destination.fileName = fileName
            destination.overwrite = record.spec.overwrite && fileName == wanted
            if !destinationsInUse.contains(destination.partialFilePath) { return destination }
        }
        destination.fileName = wanted
        var counter = 0
        while destinationsInUse.contains(destination.partialFilePath), counter < 10_000 {
            counter += 1
            destination.fileName = SafeFileName.numbered(wanted, counter)
        }
        destination.overwrite = record.spec.overwrite && counter == 0
        return destination
    }

    /// `wantedName(for:url:parsed:)` is the name a download asks for: its requested name, or
    /// the first mirror's (so every mirror writes the same file).
    func wantedName(for record: TaskRecord, url: TransferURL, parsed: URL? = nil) throws(FerryError) -> String {
        if let requestedName = record.spec.requestedName {
            return requestedName
        }
        let first = record.spec.urls.first ?? url
        if let parsed, first == url {
            return SafeFileName.fromURL(parsed)
        }
        return SafeFileName.fromURL(try Request.validatedURL(first.string))
    }
}
