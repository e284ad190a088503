import FerryKit
import FerryQueue
import Foundation

/// `HeaderArguments` expands the values of `-H`: `@FILE` (curl's form) stands for the header
/// lines in FILE, one per line (blank lines skipped, CRLF accepted), and `@-` for those on
/// standard input, so a secret header need not appear on the command line (where `ps` shows
/// it for the whole run). Any other value is one header line.
enum HeaderArguments {
    /// The most bytes read from one header file.
    static let fileLimit = 1 << 20

    /// `expand(_:)` returns the header lines; an unreadable or oversized file is an input error.
    /// The configuration file's headers (`ConfigDefaults.injectedHeaders`, first in `values`)
    /// give way to the command line's of the same name: the command line wins.
    static func expand(_ values: [String]) throws(FerryError) -> [String] {
        let fromConfig = ConfigDefaults.injectedHeaders
        let configured = !fromConfig.isEmpty && Array(values.prefix(fromConfig.count)) == fromConfig ? fromConfig.count : 0
        let given = try expandLines(Array(values.dropFirst(configured)))
        let givenNames = Set(given.map { Self.name(of: $0) })
        return fromConfig.prefix(configured).filter { !givenNames.contains(Self.name(of: $0)) } + given
    }

    /// The lowercased name of a header line (all of it when it has no colon).
    private static func name(of line: String) -> String {
        String(line.prefix(while: { $0 != ":" })).trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func expandLines(_ values: [String]) throws(FerryError) -> [String] {
        var lines: [String] = []
        for value in values {
            guard value.hasPrefix("@") else {
                lines.append(value)
                continue
            }
            let path = String(value.dropFirst())
            guard !path.isEmpty else { throw .input(.invalidHeader("-H @FILE needs a file name")) }
            let data = try read(path)
            guard let text = String(data: data, encoding: .utf8) else {
                throw .input(.invalidHeader("\(path.displayable) is not UTF-8 text"))
            }
            // "\r\n" is one Character: split on both forms of line end.
            for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
                if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                lines.append(String(trimmed))
            }
        }
        return lines
    }

    /// `fields(_:)` is the queue's header fields for the expanded lines (`ferry add`).
    static func fields(_ values: [String]) throws(QueueError) -> [HeaderField] {
        let lines: [String]
        do throws(FerryError) {
            lines = try expand(values)
        } catch {
            if case .input(.invalidHeader(let why)) = error { throw .input(.invalidHeader(detail: why)) }
            throw .input(.invalidHeader(detail: error.description))
        }
        return try lines.map { line throws(QueueError) in try HeaderField(parsing: line) }
    }

    /// Whether any value reads standard input (`@-`).
    static func readsStandardInput(_ values: [String]) -> Bool {
        values.contains("@-")
    }

    private static func read(_ path: String) throws(FerryError) -> Data {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else { throw .input(.invalidHeader("cannot read \(path.displayable): \(String(cString: strerror(errno)))")) }
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw .input(.invalidHeader("\(path.displayable) is not a regular file")) }
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw .input(.invalidHeader("cannot read \(path.displayable): \(String(cString: strerror(errno)))"))
            }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        let data: Data
        do {
            data = try handle.read(upToCount: fileLimit + 1) ?? Data()
        } catch {
            throw .input(.invalidHeader("cannot read \(path == "-" ? "standard input" : path.displayable): \(error.localizedDescription)"))
        }
        guard data.count <= fileLimit else { throw .input(.invalidHeader("\(path.displayable) is larger than 1 MiB")) }
        return data
    }
}
