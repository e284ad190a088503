import Foundation

extension MultipartFormData {
    /// `append(_:)` appends the part a parsed `-F` argument describes, as curl sends it.
    ///
    /// - `name=value`: a field; `type=` adds a `Content-Type`, `filename=` a file name.
    /// - `name=@PATH`: the file, named `filename=` or else `PATH`'s base name, typed `type=` or
    ///   else by that name's extension (``MIMETypes``). Checked now: missing, unreadable or not a
    ///   regular file is an error.
    /// - `name=<PATH`: the file's contents as the field's value, streamed from the file when
    ///   sent, with no `Content-Type` unless `type=` is given. Checked now like `@PATH`.
    ///
    /// Relative paths are resolved against the current directory.
    public mutating func append(_ spec: FormFieldSpec) throws(FerryError) {
        switch spec.content {
        case .file(let path):
            let url = URL(fileURLWithPath: path)
            let fileName = spec.fileName ?? url.lastPathComponent
            try appendPart(fileURL: url, name: spec.name, fileName: fileName, mimeType: spec.mimeType ?? MIMETypes.type(forFileName: fileName))
        case .fileContents(let path):
            try appendPart(headers: Self.fieldHeaders(spec), fileURL: URL(fileURLWithPath: path))
        case .text(let value):
            try appendPart(headers: Self.fieldHeaders(spec), body: Data(value.utf8))
        }
    }

    private static func fieldHeaders(_ spec: FormFieldSpec) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Content-Disposition": FormPart.contentDisposition(name: spec.name, fileName: spec.fileName)]
        if let mimeType = spec.mimeType {
            headers["Content-Type"] = mimeType
        }
        return headers
    }
}
