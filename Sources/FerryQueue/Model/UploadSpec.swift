/// `UploadSpec` is what an upload task sends: a method, form fields and files, or a raw body.
///
/// With fields or files the engine builds a multipart body; with `bodyFile` it sends the
/// file as the raw body (`ferry put -T`). Paths are stored as given.
public struct UploadSpec: Sendable, Hashable {
    /// `Field` is one `name=value` form field.
    public struct Field: Sendable, Hashable {
        /// `name` is the form field name.
        public var name: String
        /// `value` is the field's text.
        public var value: String

        /// `init(name:value:)` makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `File` is one file part of a multipart form.
    public struct File: Sendable, Hashable {
        /// `fieldName` is the form field the file is sent as.
        public var fieldName: String
        /// `path` is the local file to send.
        public var path: String
        /// `filename` is the name announced to the server; `nil` by default (the path's
        /// last component).
        public var filename: String?
        /// `mimeType` is the part's Content-Type; `nil` by default (guessed by the engine).
        public var mimeType: String?

        /// `init(fieldName:path:filename:mimeType:)` makes a file part.
        public init(fieldName: String, path: String, filename: String? = nil, mimeType: String? = nil) {
            self.fieldName = fieldName
            self.path = path
            self.filename = filename
            self.mimeType = mimeType
        }
    }

    /// `method` is the HTTP method; `POST` by default.
    public var method: String
    /// `fields` are the form's text fields, in order.
    public var fields: [Field]
    /// `files` are the form's file parts, in order.
    public var files: [File]
    /// `bodyFile` is a file sent as the raw body instead of a form; `nil` by default.
    public var bodyFile: String?
    /// `resumable` is how the upload resumes (`ResumableUploadOptions.Mode`: `auto`, `ietf`,
    /// `tus`); `nil` (the default) sends it as a plain request each attempt.
    public var resumable: String?

    /// `init(method:fields:files:bodyFile:)` makes an upload description.
    public init(method: String = "POST", fields: [Field] = [], files: [File] = [], bodyFile: String? = nil) {
        self.method = method
        self.fields = fields
        self.files = files
        self.bodyFile = bodyFile
    }
}
