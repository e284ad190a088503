import FerryQueue
import Foundation

/// `ListedEntries` reads a batch input file entry by entry, as `ferry add -i` and `ferry get -i`
/// both take it: a bad line and a warning are said with the file's name, an entry whose
/// directory cannot be made is said with its line and skipped (`skipped` counts both), and an
/// entry with `check-certificate=false` the command did not ask for is remembered, to be said
/// once (`warnInsecure()`): never kept silently.
struct ListedEntries {
    /// `shownPath` is the file's name in messages (`stdin` for `-`).
    let shownPath: String
    /// `skipped` is how many entries were skipped so far.
    private(set) var skipped = 0
    private let reader: BatchInputReader
    private let commandIsInsecure: Bool
    private var directories = DirectoryChecks()
    private var insecureLines: [Int] = []

    /// `init(path:defaults:commandIsInsecure:)` opens `path` (`-` for standard input); a file
    /// that cannot be opened is said and ends the command with status 2.
    init(path: String, defaults: BatchDefaults, commandIsInsecure: Bool) throws {
        do {
            reader = try BatchInputReader.open(path: path, standardInput: FileHandle.standardInput, defaults: defaults)
        } catch {
            Console.error(error.description)
            throw ExitStatus.usage
        }
        shownPath = path == "-" ? "stdin" : path
        self.commandIsInsecure = commandIsInsecure
    }

    /// `next()` is the next entry to run, with its line; `nil` at the end of the file.
    mutating func next() throws(QueueError) -> (line: Int, task: NewTask)? {
        while let item = try reader.next() {
            switch item {
            case .error(let error):
                skipped += 1
                Console.error("\(shownPath): \(error.description)")
            case .warning(let warning):
                Console.error("\(shownPath): \(warning.description)")
            case .entry(let entry):
                var task = entry.task
                if let problem = directories.prepare(&task.spec.destinationDirectory) {
                    skipped += 1
                    Console.error("\(shownPath): line \(entry.line): \(problem); the entry was skipped")
                    continue
                }
                if task.spec.connection.insecure && !commandIsInsecure { insecureLines.append(entry.line) }
                return (entry.line, task)
            }
        }
        return nil
    }

    /// `warnInsecure()` says which entries do not check TLS certificates, when some do not.
    func warnInsecure() {
        guard !insecureLines.isEmpty else { return }
        let lines = insecureLines.prefix(5).map(String.init).joined(separator: ", ") + (insecureLines.count > 5 ? ", ..." : "")
        Console.error("warning: \(shownPath): check-certificate=false (line \(lines)): TLS certificates and host names of \(insecureLines.count == 1 ? "that entry are" : "those entries are") not checked (kept with the tasks, shown in the terminal UI)")
    }
}
