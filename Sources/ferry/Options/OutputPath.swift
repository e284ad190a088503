import FerryKit
import Foundation

/// `OutputPath` is what `-o/--output` asks for: standard output (`-`), a bare name saved in
/// the download directory, or a path as curl takes it (absolute, or relative to `-d DIR`
/// when given, else to the current directory), its missing parent directories created.
///
/// Only the user's path is free: its last part, the file's name, gets the check every
/// requested name gets (`SafeFileName.check(requestedName:)`), and names that come from a
/// server keep their strict rules.
enum OutputPath: Equatable {
    /// `-o -`: the body goes to standard output.
    case standardOutput
    /// `-o NAME`: a name in the download directory.
    case name(String)
    /// `-o DIR/NAME`: `name` in `directory` (a path as given, not yet resolved).
    case path(directory: String, name: String)

    /// `parse(_:)` reads an `-o` value; throws a usage error for a path without a usable name.
    static func parse(_ text: String) throws(FerryError) -> OutputPath {
        if text == "-" { return .standardOutput }
        guard let slash = text.lastIndex(of: "/") else {
            guard SafeFileName.check(requestedName: text) == nil else {
                throw .input(.invalidOption("-o/--output: \"\(text.displayable)\" is not a plain file name (no leading dot, no control characters)"))
            }
            return .name(text)
        }
        let name = String(text[text.index(after: slash)...])
        let directory = slash == text.startIndex ? "/" : String(text[..<slash])
        guard SafeFileName.check(requestedName: name) == nil else {
            throw .input(.invalidOption("-o/--output: \"\(text.displayable)\" does not end in a plain file name (no leading dot, no control characters, no trailing '/')"))
        }
        return .path(directory: directory, name: name)
    }

    /// `directoryArgument(dir:)` is the directory to prepare for this output, as `-d` would
    /// be given: a relative path is taken inside `dir` when given, else the current directory.
    func directoryArgument(dir: String?) -> String? {
        guard case .path(let directory, _) = self else { return dir }
        let expanded = (directory as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return expanded }
        let base = dir.map { ($0 as NSString).expandingTildeInPath } ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent(expanded).path
    }

    /// `name` is the file name asked for; `nil` for standard output.
    var name: String? {
        switch self {
        case .standardOutput: nil
        case .name(let name), .path(_, let name): name
        }
    }
}
