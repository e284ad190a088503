import FerryQueue
import Synchronization

/// `EventPrinter` prints a headless run's scheduler events: a line per start and end on
/// stderr, or JSON lines on stdout with `--json`.
///
/// It observes the scheduler: each line is made on the thread that publishes the event (the
/// engine's or the scheduler's) and added to a buffer, which a flusher writes out every
/// `flushInterval` and at `finish()`. No task is woken per event, and a slow reader of the
/// output never holds up a transfer (the buffer grows instead).
final class EventPrinter: Sendable {
    let json: Bool
    private let journal: Journal
    private let pending = Mutex(Pending())
    private let flusher = Mutex<Task<Void, Never>?>(nil)

    /// `Pending` is the text made and not written yet, for stdout and stderr.
    private struct Pending {
        var output = ""
        var error = ""
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
            if json { add(output: EventPrinter.line("started", id).line) } else { add(error: "#\(id) started") }
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
                var text = "#\(id) \(state)"
                if state == .done, let path = path ?? ((try? journal.finalPath(of: id)) ?? nil) {
                    text += " \(path.displayable)"
                }
                if let error { text += ": \(error.displayable)" }
                add(error: text)
            }
        case .journalChanged, .transferred:
            return
        }
    }

    private func add(output line: String) {
        pending.withLock { $0.output += line + "\n" }
    }

    /// `add(error:)` buffers a message for stderr, prefixed as `Console.error` does.
    private func add(error line: String) {
        pending.withLock { $0.error += "ferry: " + line + "\n" }
    }

    /// `flush()` writes the buffered text (stdout first).
    private func flush() {
        let text = pending.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
        if !text.output.isEmpty { Console.outputText(text.output) }
        if !text.error.isEmpty { Console.status(text.error) }
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
