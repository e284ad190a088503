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
        safely on disk). A task the engine (a daemon, or a ferry get or ferry resume running on its own) \
        holds back for its limits is queued until it starts. On a terminal the columns have a header; otherwise they are separated \
        by tabs. --json prints one JSON object per task and line: id, state, kind, priority, \
        urls, dir, name, final_path, attempts, last_error, total_length, durable_offset, \
        completed_length, percent, speed, eta (seconds), connections, num_pieces, piece_length, \
        bitfield (aria2's: one bit per 1 MiB piece on disk, hexadecimal), headers, checksum; \
        unknown figures are null.
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
        // On a terminal every line fits its width (the URL, last, is cut first): nothing wraps.
        let width = table ? (SystemCall.terminalSize(STDOUT_FILENO)?.columns).map { max(20, $0 - 1) } : nil
        func fitted(_ line: String) -> String { width.map { line.fitted(toWidth: $0) } ?? line }
        if table { out.append(line: fitted(ListCommand.header(width: width))) }
        do {
            // A task shown as queued may be running in the journal (see `shownState`).
            let read = live != nil && states?.contains(.queued) == true ? states.map { $0.union([.running]) } : states
            try journal.forEachTask(in: read) { stored in
                var record = stored
                record.state = ListedProgress.shownState(of: stored, live: live)
                if let states, !states.contains(record.state) { return }
                let progress = ListedProgress(record: record, live: live?[record.id])
                let waits = offline && (record.state == .queued || record.state == .running)
                // Only a download with bytes on disk, not done, can have ranges recorded.
                let segments = json && record.state != .done && record.resume.durableOffset > 0 ? ((try? journal.segments(of: record.id)) ?? []) : []
                out.append(line: json ? ListCommand.jsonLine(record, progress, segments: segments, waitingForNetwork: waits)
                                      : fitted(ListCommand.textLine(record, progress, separator: table ? nil : "\t", width: width)))
            }
        } catch let error as QueueError {
            out.flush()
            throw QueueAccess.fail(error)
        }
        out.flush()
    }

    /// `jsonLine(_:_:)` is one task as a JSON object; URLs and secret headers are masked.
    static func jsonLine(_ record: TaskRecord, _ progress: ListedProgress, segments: [Segment] = [], waitingForNetwork: Bool = false) -> String {
        var line = JSONLine()
        line.add("id", record.id.rawValue)
        line.add("state", record.state.rawValue)
        line.add("kind", record.kind.rawValue)
        line.add("priority", record.priority)
        line.add("urls", strings: record.spec.urls.map(\.masked))
        line.add("dir", record.spec.destinationDirectory)
        line.add("name", TaskLabel(record).savedName)
        line.add("final_path", record.finalPath)
        line.add("attempts", record.attempts)
        line.add("last_error", record.lastError)
        line.add("total_length", record.resume.totalLength)
        line.add("durable_offset", record.resume.durableOffset)
        line.add("completed_length", progress.completed)
        line.add("percent", progress.percent.map(Int64.init))
        line.add("speed", progress.speed.map { Int64($0) })
        line.add("eta", progress.secondsLeft.map { Int64($0.rounded(.up)) })
        line.add("connections", progress.connections.map(Int64.init))
        let total = progress.total ?? record.resume.totalLength
        line.add("num_pieces", total.map(PieceMap.pieces))
        line.add("piece_length", total.map { _ in PieceMap.pieceLength })
        line.add("bitfield", total.map { total in
            PieceMap.bitfield(done: record.state == .done ? [(Int64(0), total)] : PieceMap.doneRanges(of: record, segments: segments, completed: progress.completed),
                              total: total)
        })
        line.add("headers", strings: record.spec.headers.map(\.masked))
        line.add("checksum", record.spec.checksum?.description)
        // The task's own trust, login, proxy and cookie settings, secrets masked.
        if !record.spec.connection.isEmpty {
            line.add("settings", strings: record.spec.connection.summary.map { "\($0.key)=\($0.value)" })
        }
        if waitingForNetwork { line.add("waiting", "network") }
        return line.line
    }

    /// `header(width:)` names the columns of the table shown on a terminal `width` columns wide.
    static func header(width: Int?) -> String {
        columns(["ID", "STATE", "%", "SIZE", "SPEED", "ETA", "PRI", "NAME", "URL"], width: width)
    }

    /// `textLine(_:_:separator:width:)` is one task as a line for people: id, state, %, size,
    /// speed, ETA, priority, name, URL (and the last error of a failed or paused task); the
    /// fields separated by `separator`, or aligned under the header when it is `nil`, leaving
    /// out the columns a terminal of `width` has no room for (priority first, then speed, then
    /// size and ETA), so that the name is seen.
    static func textLine(_ record: TaskRecord, _ progress: ListedProgress, separator: String?, width: Int? = nil) -> String {
        let name = TaskLabel(record).savedName
            ?? (record.spec.upload != nil ? "(upload)" : nil)
            ?? record.spec.urls.first.flatMap { URL(string: $0.string) }.map(SafeFileName.fromURL)
            ?? "-"
        var url = record.spec.urls.first?.masked.displayable ?? ""
        if record.spec.urls.count > 1 { url += " (+\(record.spec.urls.count - 1) mirrors)" }
        let figures = progress.columns
        var fields = ["#\(record.id)", record.state.rawValue, figures.percent, figures.size, figures.speed, figures.eta,
                      String(record.priority), name.displayable, url]
        if let error = record.lastError, record.state == .failed || record.state == .paused { fields.append(error.displayable) }
        return separator.map { fields.joined(separator: $0) } ?? columns(fields, width: width)
    }

    /// The indexes of the columns left out on a terminal of `width` columns.
    private static func droppedColumns(width: Int?) -> Set<Int> {
        guard let width else { return [] }
        if width >= 100 { return [] }
        if width >= 80 { return [6] }
        if width >= 64 { return [4, 6] }
        return [3, 4, 5, 6]
    }

    /// `widths` are the widths of the aligned columns before the name (numbers right-aligned).
    private static let widths: [(width: Int, right: Bool)] = [(7, false), (9, false), (4, true), (8, true), (10, true), (6, true), (3, true)]

    /// `columns(_:width:)` aligns fields under the header, two spaces apart, without the columns
    /// a terminal of `width` has no room for.
    private static func columns(_ fields: [String], width: Int?) -> String {
        let dropped = droppedColumns(width: width)
        var line = ""
        var first = true
        for (index, field) in fields.enumerated() where !dropped.contains(index) {
            if !first { line += "  " }
            first = false
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
