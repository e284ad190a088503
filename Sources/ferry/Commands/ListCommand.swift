import ArgumentParser
import FerryKit
import FerryQueue
import FerryRPC
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
        // On a terminal the columns line up and every line fits its width (the URL, last, is
        // cut first): nothing wraps.
        let width = table ? (SystemCall.terminalSize(STDOUT_FILENO)?.columns).map { max(20, $0 - 1) } : nil
        var aligned = ListTable(width: width)
        do {
            // A task shown as queued may be running in the journal (see `shownState`).
            let read = live != nil && states?.contains(.queued) == true ? states.map { $0.union([.running]) } : states
            func list(_ record: TaskRecord) {
                // The state shown is passed beside the record: a changed copy of each record
                // cost a tenth of the listing.
                let shown = ListedProgress.shownState(of: record, live: live)
                if let states, !states.contains(shown) { return }
                let progress = ListedProgress(record: record, state: shown, live: live?[record.id])
                let waits = offline && (shown == .queued || shown == .running)
                // Only a download with bytes on disk, not done, can have ranges recorded.
                let segments = json && shown != .done && record.resume.durableOffset > 0 ? ((try? journal.segments(of: record.id)) ?? []) : []
                if json {
                    ListCommand.jsonLine(record, state: shown, progress, segments: segments, waitingForNetwork: waits).write(to: &out)
                } else if table {
                    aligned.append(ListCommand.textFields(record, state: shown, progress))
                } else {
                    out.append(fields: ListCommand.textFields(record, state: shown, progress), separator: UInt8(ascii: "\t"))
                }
            }
            // Pages are read on another thread while this one writes (a million tasks: 3.2 s
            // on one core, about half that on two); two wait at most.
            let pages = BoundedHandoff<[TaskRecord]>(depth: 2)
            Thread.detachNewThread {
                do {
                    try journal.forEachPage(in: read) { page in
                        guard pages.put(page) else { throw CancellationError() }
                    }
                    pages.finish()
                } catch {
                    pages.finish(error)
                }
            }
            defer { pages.cancel() }
            while let page = try pages.take() {
                for record in page {
                    list(record)
                }
            }
        } catch let error as QueueError {
            out.flush()
            throw QueueAccess.fail(error)
        }
        if table {
            for line in aligned.lines() { out.append(line: line) }
        }
        out.flush()
    }

    /// `jsonLine(_:state:_:)` is one task as a JSON object, in the state shown; URLs and
    /// secret headers are masked.
    static func jsonLine(_ record: TaskRecord, state: TaskState, _ progress: ListedProgress, segments: [Segment] = [],
                         waitingForNetwork: Bool = false) -> JSONLine {
        var line = JSONLine()
        line.add("id", record.id.rawValue)
        line.add("state", state.rawValue)
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
        if let sources = progress.sources { line.add("sources", lines: sources.map(sourceLine)) }
        let total = progress.total ?? record.resume.totalLength
        line.add("num_pieces", total.map(PieceMap.pieces))
        line.add("piece_length", total.map { _ in PieceMap.pieceLength })
        line.add("bitfield", total.map { total in
            PieceMap.bitfield(done: state == .done ? [(Int64(0), total)] : PieceMap.doneRanges(of: record, segments: segments, completed: progress.completed),
                              total: total)
        })
        line.add("headers", strings: record.spec.headers.map(\.masked))
        line.add("checksum", record.spec.checksum?.description)
        // The task's own trust, login, proxy and cookie settings, secrets masked.
        if !record.spec.connection.isEmpty {
            line.add("settings", strings: record.spec.connection.summary.map { "\($0.key)=\($0.value)" })
        }
        if waitingForNetwork { line.add("waiting", "network") }
        return line
    }

    /// `sourceLine(_:)` is one source of a download from several at once (a daemon's
    /// `ferry-sources` entry): url, state, connections, bytes, speed, bad_pieces, reason.
    static func sourceLine(_ fields: [String: JSONValue]) -> JSONLine {
        var line = JSONLine()
        line.add("url", fields["uri"]?.stringValue)
        line.add("state", fields["ferry-state"]?.stringValue)
        line.add("connections", fields["ferry-connections"]?.integerValue)
        line.add("bytes", fields["ferry-bytes"]?.integerValue)
        line.add("speed", fields["downloadSpeed"]?.integerValue)
        line.add("bad_pieces", fields["ferry-bad-pieces"]?.integerValue)
        if let reason = fields["ferry-reason"]?.stringValue { line.add("reason", reason) }
        return line
    }

    /// `textFields(_:state:_:)` are one task's fields for people, in the state shown: id,
    /// state, %, size, speed, ETA, priority, name, URL (and the last error of a failed or
    /// paused task), escaped for a terminal; `ListTable` aligns them, and without a terminal
    /// they are joined by tabs.
    static func textFields(_ record: TaskRecord, state: TaskState, _ progress: ListedProgress) -> [String] {
        let name = TaskLabel(record).savedName
            ?? (record.spec.upload != nil ? "(upload)" : nil)
            ?? record.spec.urls.first.flatMap { SafeFileName.fromURL(string: $0.string) }
            ?? "-"
        var url = record.spec.urls.first?.masked.displayable ?? ""
        if record.spec.urls.count > 1 { url += " (+\(record.spec.urls.count - 1) mirrors)" }
        let figures = progress.columns
        var fields = ["#\(record.id)", state.rawValue, figures.percent, figures.size, figures.speed, figures.eta,
                      String(record.priority), name.displayable, url]
        if let error = record.lastError, state == .failed || state == .paused { fields.append(error.displayable) }
        return fields
    }
}
