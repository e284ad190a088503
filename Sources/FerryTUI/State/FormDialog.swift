import FerryQueue

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
    /// `problemField` is the index of the field `problem` is about, marked until it is
    /// edited; `nil` when there is none.
    public private(set) var problemField: Int?

    /// `download(directory:)` is an empty add-download dialog with the directory pre-filled.
    public static func download(directory: String) -> FormDialog {
        FormDialog(kind: .download, fields: [
            FormField(label: "URL", placeholder: "https://…"),
            FormField(label: "Directory", placeholder: "default directory", text: directory),
            FormField(label: "Name", placeholder: "optional, from the URL"),
            FormField(label: "Checksum", placeholder: "optional, sha256=HEX"),
            FormField(label: "Split", placeholder: "1 connection, up to 16 for a capped server"),
            FormField(label: "Speed cap", placeholder: "optional, e.g. 500K or 2M"),
        ])
    }

    /// `upload()` is an empty add-upload dialog.
    public static func upload() -> FormDialog {
        FormDialog(kind: .upload, fields: [
            FormField(label: "URL", placeholder: "https://…"),
            FormField(label: "Files", placeholder: "path, path, …"),
            FormField(label: "Fields", placeholder: "optional, name=value&name=value"),
            FormField(label: "Resumable", placeholder: "optional: auto, ietf or tus (goes on from the server's offset)"),
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
        let before = fields[focus].editor.characters
        fields[focus].editor.apply(action)
        if fields[focus].editor.characters != before { editedFocusedField() }
    }

    /// `insert(_:)` types text into the focused field.
    public mutating func insert(_ text: String) {
        fields[focus].editor.insert(text)
        if !text.isEmpty { editedFocusedField() }
    }

    /// `editedFocusedField()` unmarks the focused field when it was the one in error.
    private mutating func editedFocusedField() {
        if problemField == focus { problemField = nil }
    }

    /// `paste(_:)` inserts pasted text into the focused field, one line per item: in a
    /// download's URL field the lines become URLs separated by spaces (one download each),
    /// in an upload's file field paths separated by commas, elsewhere words separated by
    /// spaces. Blank lines and characters that must not reach the terminal are dropped.
    public mutating func paste(_ text: String) {
        let items = Self.pastedLines(text)
        guard !items.isEmpty else { return }
        let separator = kind == .upload && focus == 1 ? ", " : " "
        var joined = items.joined(separator: separator)
        let editor = fields[focus].editor
        if editor.cursor > 0, !editor.characters[editor.cursor - 1].isWhitespace, editor.characters[editor.cursor - 1] != "," {
            joined = separator + joined
        }
        fields[focus].editor.insert(joined)
        editedFocusedField()
    }

    /// `pastedLines(_:)` are the non-blank lines of pasted text, trimmed, without unsafe characters.
    static func pastedLines(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).compactMap { line in
            var scalars = String.UnicodeScalarView()
            for scalar in line.unicodeScalars {
                if scalar == "\t" { scalars.append(" ") } else if !DisplayText.isUnsafe(scalar) { scalars.append(scalar) }
            }
            let trimmed = String(scalars).trimmingSpaces()
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// `urls` are the whitespace-separated URLs of the URL field.
    public var urls: [String] { fields[0].value.split(whereSeparator: { $0.isWhitespace }).map(String.init) }

    /// `note` explains what the dialog will do when that is not obvious (several URLs), `nil` otherwise.
    public var note: String? {
        let count = urls.count
        guard kind == .download, count > 1 else { return nil }
        return "\(count) URLs: Enter adds \(count) downloads"
    }

    /// `submit(in:)` validates the fields and returns the commands (one per URL of a
    /// download), or records the problem, focuses the offending field and returns `nil`.
    public mutating func submit(in environment: TUIEnvironment) -> [TUICommand]? {
        switch validate(in: environment) {
        case .success(let command):
            problem = nil
            problemField = nil
            return command
        case .failure(let failure):
            reject(failure)
            return nil
        }
    }

    /// `reject(_:)` shows a problem the application found after the dialog was submitted,
    /// focusing the offending field when the problem names one.
    public mutating func reject(_ failure: FieldProblem) {
        problem = failure.message
        problemField = nil
        if let field = failure.field, fields.indices.contains(field) {
            focus = field
            problemField = field
        }
    }

    /// `validate(in:)` checks every field without changing the dialog. A download's URL
    /// field may hold several URLs separated by spaces (a paste of one per line): each
    /// becomes a download, and then no name or checksum may be given.
    public func validate(in environment: TUIEnvironment) -> Result<[TUICommand], FieldProblem> {
        let urls = kind == .download ? urls : [fields[0].value]
        if urls.count > 1 {
            for url in urls {
                if let message = URLValidator.problem(in: url) {
                    return .failure(FieldProblem("\(DisplayText.truncate(url, toWidth: 40)): \(message)", field: 0))
                }
            }
            if !fields[2].value.isEmpty { return .failure(FieldProblem("A name can be given for one URL only", field: 2)) }
            if !fields[3].value.isEmpty { return .failure(FieldProblem("A checksum can be given for one URL only", field: 3)) }
            var commands: [TUICommand] = []
            for url in urls {
                switch validateDownload(url: url, in: environment) {
                case .success(let command): commands.append(command)
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(commands)
        }
        let url = urls.first ?? ""
        if let message = URLValidator.problem(in: url) { return .failure(FieldProblem(message, field: 0)) }
        switch kind {
        case .download:
            return validateDownload(url: url, in: environment).map { [$0] }
        case .upload:
            return validateUpload(url: url, in: environment).map { [$0] }
        }
    }

    /// `directory(in:)` is the directory a download would be saved in (the typed one, else
    /// the default), `nil` for an upload or when there is none.
    public func directory(in environment: TUIEnvironment) -> String? {
        guard kind == .download else { return nil }
        let typed = fields[1].value
        let directory = typed.isEmpty ? environment.defaultDirectory : typed
        return directory.isEmpty ? nil : environment.expandingTilde(directory)
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
        var connections: Int?
        let count = fields[4].value
        if !count.isEmpty {
            guard let parsed = Int(count), (1...16).contains(parsed) else {
                return .failure(FieldProblem("Split: connections from 1 to 16", field: 4))
            }
            connections = parsed
        }
        var speedLimit: Int64?
        let rate = fields[5].value
        if !rate.isEmpty {
            guard let parsed = try? TaskOptions.parseRate(rate) else {
                return .failure(FieldProblem("Speed cap: a rate such as 500K or 2M", field: 5))
            }
            speedLimit = parsed
        }
        return .success(.addDownload(DownloadRequest(
            url: url,
            directory: environment.expandingTilde(directory),
            name: name.isEmpty ? nil : name,
            checksum: checksum,
            connections: connections,
            speedLimit: speedLimit
        )))
    }

    private func validateUpload(url: String, in environment: TUIEnvironment) -> Result<TUICommand, FieldProblem> {
        let files = fields[1].editor.text.split(separator: ",")
            .map { environment.expandingTilde(String($0).trimmingSpaces()) }
            .filter { !$0.isEmpty }
        for file in files where !environment.isReadableFile(file) {
            return .failure(FieldProblem("Cannot read file: \(file)", field: 1))
        }
        var formFields: [UploadSpec.Field] = []
        for pair in fields[2].editor.text.split(separator: "&") {
            let trimmed = String(pair).trimmingSpaces()
            if trimmed.isEmpty { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                return .failure(FieldProblem("Fields are name=value pairs joined by &", field: 2))
            }
            formFields.append(UploadSpec.Field(name: String(parts[0]), value: String(parts[1])))
        }
        if files.isEmpty && formFields.isEmpty {
            return .failure(FieldProblem("Give at least one file or field", field: 1))
        }
        let resumable = fields[3].editor.text.trimmingSpaces().lowercased()
        guard resumable.isEmpty || ["auto", "ietf", "tus"].contains(resumable) else {
            return .failure(FieldProblem("Resumable is auto, ietf or tus (or empty for a plain upload)", field: 3))
        }
        if !resumable.isEmpty && files.isEmpty {
            return .failure(FieldProblem("A resumable upload sends files: give at least one", field: 1))
        }
        return .success(.addUpload(UploadRequest(url: url, files: files, fields: formFields, resumable: resumable.isEmpty ? nil : resumable)))
    }
}
