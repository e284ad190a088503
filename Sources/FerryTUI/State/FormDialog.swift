/// `FormDialog` is the state of an add dialog: its fields, the focused field and the
/// validation problem shown inside it.
///
/// `submit(in:)` validates every field and produces a command only when all pass; on
/// failure it reports the problem and focuses the offending field, emitting nothing.
public struct FormDialog: Sendable, Hashable {
    /// `FormDialog.Kind` says which command the dialog produces.
    public enum Kind: Sendable, Hashable {
        /// `download`: the dialog adds a download: URL, directory, name, checksum.
        case download
        /// `upload`: the dialog adds an upload: URL, files, fields.
        case upload
    }

    /// `kind` says which command the dialog produces.
    public let kind: Kind
    /// `fields` are the dialog's input lines, in focus order.
    public private(set) var fields: [FormField]
    /// `focus` is the index of the field receiving keys.
    public private(set) var focus: Int = 0
    /// `problem` is the last validation failure, `nil` when there is none.
    public private(set) var problem: String?

    /// `download(directory:)` is an empty add-download dialog with the directory pre-filled.
    public static func download(directory: String) -> FormDialog {
        FormDialog(kind: .download, fields: [
            FormField(label: "URL", placeholder: "https://…"),
            FormField(label: "Directory", placeholder: "default directory", text: directory),
            FormField(label: "Name", placeholder: "optional, from the URL"),
            FormField(label: "Checksum", placeholder: "optional, sha256=HEX"),
        ])
    }

    /// `upload()` is an empty add-upload dialog.
    public static func upload() -> FormDialog {
        FormDialog(kind: .upload, fields: [
            FormField(label: "URL", placeholder: "https://…"),
            FormField(label: "Files", placeholder: "path, path, …"),
            FormField(label: "Fields", placeholder: "optional, name=value&name=value"),
        ])
    }

    /// `title` is shown in the dialog's frame.
    public var title: String { kind == .download ? "Add download" : "Add upload" }

    /// `focusNext()` moves the focus to the next field, wrapping around.
    public mutating func focusNext() { focus = (focus + 1) % fields.count }

    /// `focusPrevious()` moves the focus to the previous field, wrapping around.
    public mutating func focusPrevious() { focus = (focus + fields.count - 1) % fields.count }

    /// `edit(_:)` applies a line-editing operation to the focused field.
    public mutating func edit(_ action: EditAction) {
        fields[focus].editor.apply(action)
    }

    /// `insert(_:)` types text into the focused field.
    public mutating func insert(_ text: String) {
        fields[focus].editor.insert(text)
    }

    /// `submit(in:)` validates the fields and returns the command, or records the problem,
    /// focuses the offending field and returns `nil`.
    public mutating func submit(in environment: TUIEnvironment) -> TUICommand? {
        switch validate(in: environment) {
        case .success(let command):
            problem = nil
            return command
        case .failure(let failure):
            problem = failure.message
            if let field = failure.field { focus = field }
            return nil
        }
    }

    /// `reject(_:)` shows a problem the application found after the dialog was submitted,
    /// focusing the offending field when the problem names one.
    public mutating func reject(_ failure: FieldProblem) {
        problem = failure.message
        if let field = failure.field, fields.indices.contains(field) { focus = field }
    }

    /// `validate(in:)` checks every field without changing the dialog.
    public func validate(in environment: TUIEnvironment) -> Result<TUICommand, FieldProblem> {
        let url = fields[0].value
        if let message = URLValidator.problem(in: url) { return .failure(FieldProblem(message, field: 0)) }
        switch kind {
        case .download:
            return validateDownload(url: url, in: environment)
        case .upload:
            return validateUpload(url: url, in: environment)
        }
    }

    private init(kind: Kind, fields: [FormField]) {
        self.kind = kind
        self.fields = fields
    }

    private func validateDownload(url: String, in environment: TUIEnvironment) -> Result<TUICommand, FieldProblem> {
        var directory = fields[1].value
        if directory.isEmpty { directory = environment.defaultDirectory }
        if directory.isEmpty { return .failure(FieldProblem("Enter a directory", field: 1)) }
        if directory.unicodeScalars.contains(where: DisplayText.isUnsafe) {
            return .failure(FieldProblem("The directory contains control characters", field: 1))
        }
        let name = fields[2].value
        if name == "." || name == ".." || name.contains("/") || name.unicodeScalars.contains(where: DisplayText.isUnsafe) {
            return .failure(FieldProblem("The name must be a plain file name (no /)", field: 2))
        }
        var checksum: String?
        let typed = fields[3].value
        if !typed.isEmpty {
            switch ChecksumValidator.normalize(typed) {
            case .success(let normalized): checksum = normalized
            case .failure(let failure): return .failure(FieldProblem(failure.message, field: 3))
            }
        }
        return .success(.addDownload(DownloadRequest(
            url: url,
            directory: environment.expandingTilde(directory),
            name: name.isEmpty ? nil : name,
            checksum: checksum
        )))
    }

    private func validateUpload(url: String, in environment: TUIEnvironment) -> Result<TUICommand, FieldProblem> {
        let files = fields[1].editor.text.split(separator: ",")
            .map { environment.expandingTilde(String($0).trimmingSpaces()) }
            .filter { !$0.isEmpty }
        for file in files where !environment.isReadableFile(file) {
            return .failure(FieldProblem("Cannot read file: \(file)", field: 1))
        }
        var formFields: [UploadRequest.Field] = []
        for pair in fields[2].editor.text.split(separator: "&") {
            let trimmed = String(pair).trimmingSpaces()
            if trimmed.isEmpty { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                return .failure(FieldProblem("Fields are name=value pairs joined by &", field: 2))
            }
            formFields.append(UploadRequest.Field(name: String(parts[0]), value: String(parts[1])))
        }
        if files.isEmpty && formFields.isEmpty {
            return .failure(FieldProblem("Give at least one file or field", field: 1))
        }
        return .success(.addUpload(UploadRequest(url: url, files: files, fields: formFields)))
    }
}
