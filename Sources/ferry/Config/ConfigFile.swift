import FerryKit
import Foundation

/// `ConfigFile` is Ferry's configuration file: `key=value` lines with aria2's option names, so
/// that an `aria2.conf` reads as it is. `#` starts a comment line; blank lines are skipped;
/// blanks around the key and the value are dropped. Its place is `--config FILE`, else
/// `$XDG_CONFIG_HOME/ferry/config` (`~/.config/ferry/config`); `--no-config` reads none.
struct ConfigFile {
    /// `Entry` is one `key=value` line.
    struct Entry: Equatable {
        let key: String
        let value: String
        let line: Int
    }

    /// `Problem` is a line that cannot be read, or a value an option does not take: it names
    /// the file and the line, and stops the command (exit 2).
    struct Problem: Error, CustomStringConvertible {
        let path: String
        let line: Int?
        let message: String

        var description: String {
            "\(path.displayable)\(line.map { ":\($0)" } ?? ""): \(message)"
        }
    }

    let path: String
    let entries: [Entry]

    /// `defaultPath(environment:)` is `$XDG_CONFIG_HOME/ferry/config`, else `~/.config/ferry/config`.
    static func defaultPath(environment: [String: String]) -> String {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/ferry/config"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/ferry/config"
    }

    /// `parse(_:path:)` reads the lines of `text`.
    static func parse(_ text: String, path: String) throws(Problem) -> ConfigFile {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(path: path, line: index + 1, message: "not a key=value line: \(String(line.prefix(60)).displayable)")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw Problem(path: path, line: index + 1, message: "not an option name: \(key.displayable)")
            }
            entries.append(Entry(key: key, value: value, line: index + 1))
        }
        return ConfigFile(path: path, entries: entries)
    }

    /// `load(explicit:environment:)` reads the file `--config` named (it must exist), else
    /// the default one if there is one; `nil` when there is none.
    static func load(explicit: String?, environment: [String: String]) throws(Problem) -> ConfigFile? {
        let path = explicit ?? defaultPath(environment: environment)
        guard let data = FileManager.default.contents(atPath: path) else {
            if explicit == nil && !SystemCall.exists(path) { return nil }
            throw Problem(path: path, line: nil, message: "cannot be read (\(String(cString: strerror(errno))))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: nil, message: "is not UTF-8 text")
        }
        return try parse(text, path: path)
    }
}
