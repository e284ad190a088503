import ArgumentParser
import FerryKit
import FerryQueue
import Foundation

/// `ListCommand` is `ferry list`: the saved queue in queue order, secrets masked.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the saved queue in queue order (passwords and secret headers masked).",
        discussion: """
        Each task shows its state, how much is done (%), its size, and while a daemon runs it, \
        its speed and the time left (ETA); other figures come from the journal (the bytes \
        safely on disk). On a terminal the columns have a header; otherwise they are separated \
        by tabs. --json prints one JSON object per task and line: id, state, kind, priority, \
        urls, dir, name, final_path, attempts, last_error, total_length, durable_offset, \
        completed_length, percent, speed, eta (seconds), headers, checksum; unknown figures are null.
        """
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
        let live = try await ListedProgress.live(from: stateOptions)
        let journal = try QueueAccess.openJournal(stateOptions)
        defer { try? journal.close() }
        let offline = (try? journal.networkOffline()) ?? false
        var out = OutputBuffer()
        let table = !json && Console.stdoutIsTerminal
        if offline && !json { Console.error("the engine waits for the network (no route); queued tasks start when it returns") }
        if table { out.append(line: ListCommand.header) }
        do {
            try journal.forEachTask(in: states) { record in
                let progress = ListedProgress(record: record, live: live[record.id])
                let waits = offline && (record.state == .queued || record.state == .running)
                out.append(line: json ? ListCommand.jsonLine(record, progress, waitingForNetwork: waits)
                                      : ListCommand.textLine(record, progress, separator: table ? nil : "\t"))
            }
        } catch let error as QueueError {
            out.flush()
            throw QueueAccess.fail(error)
        }
        out.flush()
    }

    /// `jsonLine(_:_:)` is one task as a JSON object; URLs and secret headers are masked.
    static func jsonLine(_ record: TaskRecord, _ progress: ListedProgress, waitingForNetwork: Bool = false) -> String {
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
        line.add("completed_length", progress.completed)
        line.add("percent", progress.percent.map(Int64.init))
        line.add("speed", progress.speed.map { Int64($0) })
        line.add("eta", progress.secondsLeft.map { Int64($0.rounded(.up)) })
        line.add("headers", strings: record.spec.headers.map(\.masked))
        line.add("checksum", record.spec.checksum?.description)
        if waitingForNetwork { line.add("waiting", "network") }
        return line.line
    }

    /// `header` names the columns of the table shown on a terminal.
    static let header = columns(["ID", "STATE", "%", "SIZE", "SPEED", "ETA", "PRI", "NAME", "URL"])

    /// `textLine(_:_:separator:)` is one task as a line for people: id, state, %, size, speed,
    /// ETA, priority, name, URL (and the last error of a failed or paused task); the fields
    /// separated by `separator`, or aligned under `header` when it is `nil`.
    static func textLine(_ record: TaskRecord, _ progress: ListedProgress, separator: String?) -> String {
        let name = record.finalPath.map { URL(fileURLWithPath: $0).lastPathComponent }
            ?? record.spec.requestedName
            ?? (record.spec.upload != nil ? "(upload)" : nil)
            ?? record.spec.urls.first.flatMap { URL(string: $0.string) }.map(SafeFileName.fromURL)
            ?? "-"
        var url = record.spec.urls.first?.masked.displayable ?? ""
        if record.spec.urls.count > 1 { url += " (+\(record.spec.urls.count - 1) mirrors)" }
        let figures = progress.columns
        var fields = ["#\(record.id)", record.state.rawValue, figures.percent, figures.size, figures.speed, figures.eta,
                      String(record.priority), name.displayable, url]
        if let error = record.lastError, record.state == .failed || record.state == .paused { fields.append(error.displayable) }
        return separator.map { fields.joined(separator: $0) } ?? columns(fields)
    }

    /// `widths` are the widths of the aligned columns before the name (numbers right-aligned).
    private static let widths: [(width: Int, right: Bool)] = [(7, false), (9, false), (4, true), (8, true), (10, true), (6, true), (3, true)]

    /// `columns(_:)` aligns fields under the header, two spaces apart.
    private static func columns(_ fields: [String]) -> String {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { line += "  " }
            guard index < widths.count else {
                line += field
                continue
            }
            let padding = String(repeating: " ", count: max(0, widths[index].width - field.count))
            line += widths[index].right ? padding + field : field + padding
        }
        return line
    }
}
