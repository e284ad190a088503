import FerryQueue
import Synchronization

/// `EventPrinter` prints a headless run's scheduler events: a line per start and end on
/// stderr, or JSON lines on stdout with `--json`.
///
/// It observes the scheduler: each event is noted in a buffer on the thread that publishes it
/// (the engine's or the scheduler's), and a flusher makes the lines and writes them out every
/// `flushInterval` and at `finish()`. No task is woken per event, the engine thread makes no
/// text (a plain line is only noted, JSON lines are made at once), and a slow reader of the
/// output never holds up a transfer (the buffer grows instead).
final class EventPrinter: Sendable {
    let json: Bool
    private let journal: Journal
    private let pending = Mutex(Pending())
    private let flusher = Mutex<Task<Void, Never>?>(nil)

    /// `Pending` is what was noted and not written yet: JSON text for stdout, plain lines for
    /// stderr (made at the flush).
    private struct Pending {
        var output = ""
        var lines: [PlainLine] = []
    }

    /// `PlainLine` is a line for stderr, noted as the event gave it.
    private enum PlainLine {
        case started(TaskID)
        case ended(TaskID, TaskState, error: String?, path: String?)
    }

    /// How long a line may wait in the buffer: short enough to look immediate on a terminal.
    static let flushInterval = Duration.milliseconds(50)

    /// `journal` is read for a finished download's path when its event does not carry it.
    init(json: Bool, journal: Journal) {
        self.json = json
        self.journal = journal
    }

    /// `follow(_:)` prints `scheduler`'s events from now until `finish()` (or until its events
    /// end: `Scheduler.finishEvents()`).
    func follow(_ scheduler: Scheduler) {
        scheduler.observe { [self] event in take(event) }
        let task = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: EventPrinter.flushInterval)
                flush()
            }
        }
        flusher.withLock { $0 = task }
    }

    /// `finish()` stops the flusher and writes every line made so far.
    func finish() {
        flusher.withLock { $0.take() }?.cancel()
        flush()
    }

    /// `take(_:)` makes the lines of `event`, on the publishing thread.
    private func take(_ event: SchedulerEvent) {
        switch event {
        case .started(let id):
            if json { add(output: EventPrinter.line("started", id).line) } else { note(.started(id)) }
        case .progress(let id, let progress):
            guard json else { return }
            var line = EventPrinter.line("progress", id)
            line.add("received", progress.receivedBytes)
            line.add("expected", progress.expectedReceivedBytes)
            line.add("sent", progress.sentBytes)
            line.add("bytes_per_second", progress.bytesPerSecond)
            add(output: line.line)
        case .ended(let id, let state, let error, let path):
            if json {
                var line = EventPrinter.line("ended", id)
                line.add("state", state.rawValue)
                line.add("error", error)
                add(output: line.line)
            } else {
                note(.ended(id, state, error: error, path: path))
            }
        case .journalChanged, .transferred, .willRetry, .note:
            return
        }
    }

    private func add(output line: String) {
        pending.withLock { $0.output += line + "\n" }
    }

    /// `note(_:)` buffers a line for stderr.
    private func note(_ line: PlainLine) {
        pending.withLock { $0.lines.append(line) }
    }

    /// `flush()` writes the buffered text (stdout first), making the plain lines now.
    private func flush() {
        let taken = pending.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
        if !taken.output.isEmpty { Console.outputText(taken.output) }
        guard !taken.lines.isEmpty else { return }
        var text = ""
        text.reserveCapacity(taken.lines.count * 48)
        for line in taken.lines {
            append(line, to: &text)
        }
        Console.status(text)
    }

    /// `append(_:to:)` adds a plain line, prefixed as `Console.error` does: `#ID started`, or
    /// `#ID STATE`, with the path of a finished download and the error when there is one.
    private func append(_ line: PlainLine, to text: inout String) {
        text += "ferry: #"
        switch line {
        case .started(let id):
            text += id.description
            text += " started"
        case .ended(let id, let state, let error, let path):
            text += id.description
            text += " "
            text += state.rawValue
            if state == .done, let path = path ?? ((try? journal.finalPath(of: id)) ?? nil) {
                text += " "
                text += path.displayable
            }
            if let error {
                text += ": "
                text += error.displayable
                // Paused by an error (a full disk): say how to go on.
                if state == .paused { text += " (ferry resume \(id.rawValue))" }
            }
        }
        text += "\n"
    }

    /// `line(_:_:)` is a JSON line about a task, starting with its event and id.
    private static func line(_ event: String, _ id: TaskID) -> JSONLine {
        var line = JSONLine()
        line.add("event", event)
        line.add("id", id.rawValue)
        return line
    }

    /// `summary(_:counts:)` prints what the run did and what is left in the queue.
    func summary(_ summary: SchedulerSummary, counts: [TaskState: Int]) {
        if json {
            var line = JSONLine()
            line.add("event", "summary")
            line.add("completed", summary.completed)
            line.add("failed", summary.failed)
            line.add("paused_by_error", summary.pausedByError)
            line.add("retried", summary.retried)
            for state in TaskState.allCases { line.add("queue_\(state.rawValue)", counts[state] ?? 0) }
            line.add("exit_status", Int(summary.exitStatus))
            Console.output(line.line)
        } else {
            var text = "\(summary.completed) done, \(summary.failed) failed"
            if summary.pausedByError > 0 { text += ", \(summary.pausedByError) paused by an error" }
            text += "; in the queue: \(counts[.queued] ?? 0) queued, \(counts[.paused] ?? 0) paused, \(counts[.failed] ?? 0) failed"
            Console.error(text)
        }
    }
}
