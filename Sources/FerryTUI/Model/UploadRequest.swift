/// `UploadRequest` is what the add-upload dialog asks the application to enqueue.
public struct UploadRequest: Sendable, Hashable {
    /// `UploadRequest.Field` is one plain form field (`name=value`).
    public struct Field: Sendable, Hashable {
        /// `name` is the form field name; never empty.
        public var name: String
        /// `value` is the field's text value.
        public var value: String

        /// `init(name:value:)` makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `url` is an http or https URL, already validated and trimmed.
    public var url: String
    /// `files` are the local files to send, each checked to be a readable regular file.
    public var files: [String]
    /// `fields` are the plain form fields, in the order typed.
    public var fields: [Field]

    /// `init(url:files:fields:)` makes a request; files and fields are empty by default.
    public init(url: String, files: [String] = [], fields: [Field] = []) {
        self.url = url
        self.files = files
        self.fields = fields
    }
}
