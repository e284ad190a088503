/// `FormFieldSpec` is one `-F` argument in curl's syntax, parsed but not yet read.
///
/// The forms accepted, as in curl's `-F`:
///
/// - `name=value`: a text field.
/// - `name=@PATH`: the file at `PATH`, sent as a file with its base name and the MIME type
///   for its extension.
/// - `name=<PATH`: a text field whose value is the contents of the file at `PATH`.
///
/// Each may be followed by parameters: `;type=MIME` sets the part's `Content-Type` and
/// `;filename=NAME` the file name sent (for `@PATH`, the MIME type then follows `NAME`'s
/// extension). A value, path or parameter may be quoted, `"..."`, with `\"` and `\\` as
/// escapes, to hold a `;`, a leading `@` or `<`, or surrounding spaces; unquoted, it ends at
/// the next `;` and surrounding spaces and tabs are dropped. Parsing is pure: no file is
/// touched until the spec is appended to a form (``MultipartFormData/append(_:)``).
///
/// Where curl is lenient, this parser reports an error instead, so that nothing different
/// from what was typed is sent: an unknown parameter (`a=x;y` sends `x` with curl), text after
/// a closing quote, and an unterminated quote.
public struct FormFieldSpec: Sendable, Equatable {
    /// `Content` is what the field's value is made of.
    public enum Content: Sendable, Equatable {
        /// `text` is `name=value`: the value itself.
        case text(String)
        /// `file` is `name=@PATH`: the file at `PATH`, sent as a file.
        case file(path: String)
        /// `fileContents` is `name=<PATH`: the contents of the file at `PATH`, sent as the field's value.
        case fileContents(path: String)
    }

    /// `name` is the field's name.
    public var name: String
    /// `content` is the field's value or the file it comes from.
    public var content: Content
    /// `mimeType` is the `;type=` parameter, `nil` when not given.
    public var mimeType: String?
    /// `fileName` is the `;filename=` parameter, `nil` when not given.
    public var fileName: String?

    /// `init(name:content:mimeType:fileName:)` creates a spec directly; `mimeType` and `fileName` are `nil` by default.
    public init(name: String, content: Content, mimeType: String? = nil, fileName: String? = nil) {
        self.name = name
        self.content = content
        self.mimeType = mimeType
        self.fileName = fileName
    }

    /// `parse(_:)` parses one `-F` argument; a malformed one is ``InputReason/invalidOption(_:)`` with the reason.
    public static func parse(_ argument: String) throws(FerryError) -> FormFieldSpec {
        var scanner = Scanner(argument)
        guard let equals = scanner.scalars.firstIndex(of: "=") else {
            throw scanner.error("has no '=' (expected name=value, name=@FILE or name=<FILE)")
        }
        let name = String(String.UnicodeScalarView(scanner.scalars[..<equals]))
        guard !name.isEmpty else { throw scanner.error("has an empty name before '='") }
        scanner.position = equals + 1

        let content: Content
        switch scanner.peek {
        case "@", "<":
            let isFile = scanner.peek == "@"
            scanner.position += 1
            let path = try scanner.word()
            guard !path.isEmpty else { throw scanner.error("has no file name after '\(isFile ? "@" : "<")'") }
            content = isFile ? .file(path: path) : .fileContents(path: path)
        default:
            content = .text(try scanner.word())
        }

        var spec = FormFieldSpec(name: name, content: content)
        var seen: Set<String> = []
        while scanner.peek == ";" {
            scanner.position += 1
            let key = scanner.parameterName().lowercased()
            if key.isEmpty, scanner.peek == nil || scanner.peek == ";" { continue }
            guard scanner.peek == "=", key == "type" || key == "filename" else {
                throw scanner.error("has an unknown parameter \"\(key.printable)\" (only type= and filename= are supported; quote a value that contains ';', as in name=\"a;b\")")
            }
            guard seen.insert(key).inserted else { throw scanner.error("gives \(key)= twice") }
            scanner.position += 1
            let value = try scanner.word()
            if key == "type" {
                guard !value.isEmpty else { throw scanner.error("has an empty type=") }
                do throws(FerryError) {
                    try HTTPHeaders.validate(name: "Content-Type", value: value)
                } catch {
                    throw scanner.error("has a type= with a line break or NUL")
                }
                spec.mimeType = value
            } else {
                spec.fileName = value
            }
        }
        return spec
    }

    /// `Scanner` walks the argument's Unicode scalars (so that CR LF or a quote followed by a
    /// combining mark is never taken for one character).
    private struct Scanner {
        let argument: String
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ argument: String) {
            self.argument = argument
            scalars = Array(argument.unicodeScalars)
        }

        var peek: Unicode.Scalar? {
            position < scalars.count ? scalars[position] : nil
        }

        func error(_ why: String) -> FerryError {
            .input(.invalidOption("form field \"\(argument.printable)\" \(why)"))
        }

        mutating func skipBlanks() {
            while let scalar = peek, scalar == " " || scalar == "\t" { position += 1 }
        }

        /// `parameterName()` reads a parameter name up to `=` or `;`, without surrounding blanks.
        mutating func parameterName() -> String {
            skipBlanks()
            var name = String.UnicodeScalarView()
            while let scalar = peek, scalar != "=", scalar != ";" {
                name.append(scalar)
                position += 1
            }
            return String(name).trimmingBlanks()
        }

        /// `word()` reads a quoted or unquoted word, leaving the position at the following `;` or the end.
        mutating func word() throws(FerryError) -> String {
            skipBlanks()
            guard peek == "\"" else {
                var word = String.UnicodeScalarView()
                while let scalar = peek, scalar != ";" {
                    word.append(scalar)
                    position += 1
                }
                return String(word).trimmingBlanks()
            }
            position += 1
            var word = String.UnicodeScalarView()
            while true {
                guard let scalar = peek else { throw error("has an unterminated quote") }
                position += 1
                if scalar == "\"" { break }
                if scalar == "\\", let next = peek, next == "\"" || next == "\\" {
                    word.append(next)
                    position += 1
                } else {
                    word.append(scalar)
                }
            }
            skipBlanks()
            guard peek == nil || peek == ";" else { throw error("has text after a closing quote") }
            return String(word)
        }
    }
}
