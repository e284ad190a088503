import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `ListCommand` is `ferry list`: the saved queue in queue order, secrets masked.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the saved queue in queue order (passwords and secret headers masked).",
        discussion: "--json prints one JSON object per task and line: id, state, kind, priority, urls, dir, name, final_path, attempts, last_error, total_length, durable_offset, headers, checksum."
    )

    @Flag(help: "One JSON object per task and line.")
    var json = false

    @Option(help: ArgumentHelp("Only tasks in this state: queued, running, paused, done, failed, cancelled (repeatable).", valueName: "state"))
    var state: [String] = []

    @OptionGroup var stateOptions: StateOptions

    func run() async throws {
        var states: Set<TaskState>?
        if !state.isEmpty {
            var chosen = Set<TaskState>()
            for name in state {
                guard let parsed = TaskState(rawValue: name.lowercased()) else {
                    Console.error("unknown state '\(name)' (queued, running, paused, done, failed, cancelled)")
                    throw ExitStatus.usage
                }
                chosen.insert(parsed)
            }
            states = chosen
        }
        let journal = try QueueAccess.openJournal(stateOptions)
        defer { try? journal.close() }
        var out = OutputBuffer()
        do {
            try journal.forEachTask(in: states) { record in
                out.append(line: json ? ListCommand.jsonLine(record) : ListCommand.textLine(record))
            }
        } catch let error as QueueError {
            out.flush()
            throw QueueAccess.fail(error)
        }
        out.flush()
    }

    /// `jsonLine(_:)` is one task as a JSON object; URLs and secret headers are masked.
    static func jsonLine(_ record: TaskRecord) -> String {
        var line = JSONLine()
        line.add("id", record.id.rawValue)
        line.add("state", record.state.rawValue)
        line.add("kind", record.kind.rawValue)
        line.add("priority", record.priority)
        line.add("urls", strings: record.spec.urls.map(\.masked))
        line.add("dir", record.spec.destinationDirectory)
        line.add("name", record.spec.requestedName)
        line.add("final_path", record.finalPath)
        line.add("attempts", record.attempts)
        line.add("last_error", record.lastError)
        line.add("total_length", record.resume.totalLength)
        line.add("durable_offset", record.resume.durableOffset)
        line.add("headers", strings: record.spec.headers.map(\.masked))
        line.add("checksum", record.spec.checksum?.description)
        return line.line
    }

    /// `textLine(_:)` is one task as a line for people: id, state, priority, name, URL.
    static func textLine(_ record: TaskRecord) -> String {
        let name = record.finalPath.map { URL(fileURLWithPath: $0).lastPathComponent }
            ?? record.spec.requestedName
            ?? (record.spec.upload != nil ? "(upload)" : nil)
            ?? record.spec.urls.first.flatMap { URL(string: $0.string) }.map(SafeFileName.fromURL)
            ?? "-"
        var text = "#\(record.id)\t\(record.state)\t\(record.priority)\t\(name.displayable)\t\(record.spec.urls.first?.masked.displayable ?? "")"
        if record.spec.urls.count > 1 { text += " (+\(record.spec.urls.count - 1) mirrors)" }
        if let error = record.lastError, record.state == .failed || record.state == .paused { text += "\t\(error.displayable)" }
        return text
    }
}
