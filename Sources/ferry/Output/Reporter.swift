import FerryKit
import FerryQueue
import Foundation
import Synchronization

/// `Reporter` shows headless transfers: a progress line on a terminal, plain lines otherwise,
/// or JSON lines on stdout with `--json`. Safe to call from any thread.
final class Reporter: Sendable {
    /// `Style` is how progress is shown.
    enum Style {
        case terminal, plain, json

        /// `init(json:)` is JSON lines with `--json`, else a redrawn line when stderr is a
        /// terminal, else plain lines.
        init(json: Bool) {
            self = json ? .json : (Console.stderrIsTerminal ? .terminal : .plain)
        }
    }

    /// `Live` is a running transfer: its own task (read at each redraw) or, for a queued task,
    /// its latest progress event.
    private struct Live {
        var label: String
        /// The name its progress line shows (the file's name; the label for an upload).
        var name: String
        /// When it started, relative to the others: the progress block keeps this order.
        var order: Int
        var task: TransferTask?
        var progress = TransferProgress()
    }

    /// `Job` is a task of the scheduler shown as one of the run's jobs: `label` (the masked
    /// URL) names it in messages, `name` (the file it writes) on its progress line.
    struct Job: Sendable {
        let index: Int
        let label: String
        let name: String
        /// `resumesAt` is the bytes of the `.part` the journal says the download continues
        /// from; 0 (the default) for a download that starts from zero.
        let resumesAt: Int64

        init(index: Int, label: String, name: String? = nil, resumesAt: Int64 = 0) {
            self.index = index
            self.label = label
            self.name = name ?? label
            self.resumesAt = resumesAt
        }
    }

    private struct State {
        var live: [Int: Live] = [:]
        /// Each job's label, for the line that reports its failure at the end.
        var labels: [Int: String] = [:]
        var finished = 0
        var total = 0
        var lastLine = 0.0
        /// Lines of the progress block on the terminal now (0: none drawn, or cleared).
        var linesShown = 0
        var started = 0
        /// Attempts started per scheduler task, and the retry delay announced for its next.
        var attempts: [TaskID: Int] = [:]
        var retryDelays: [TaskID: Double] = [:]
        /// The downloads that may resume, with the offset, until their progress tells
        /// (see `resumed(_:progress:)`).
        var mayResume: [TaskID: Int64] = [:]
    }

    private let style: Style
    private let state = Mutex(State())
    private let clock = SystemClock()
    private let verb: String

    init(style: Style, jobCount: Int, verb: String) {
        self.style = style
        self.verb = verb
        state.withLock { $0.total = jobCount }
    }

    /// `expect(_:)` sets the number of jobs the run shows (known once it is planned).
    func expect(_ jobCount: Int) {
        state.withLock { $0.total = jobCount }
    }

    /// Follows the session's events until it is invalidated.
    func follow(_ session: SessionManager) -> Task<Void, Never> {
        let events = session.events()
        return Task.detached { [self] in
            for await event in events {
                if case .progress(let id, let progress) = event { self.progress(taskID: id, progress) }
            }
        }
    }

    /// `show(_:jobs:)` shows one event of a scheduler's task in `jobs` (a scheduler's own, or
    /// one a follower of a daemon made from what it reported).
    func show(_ event: SchedulerEvent, jobs: [TaskID: Job]) {
        switch event {
        case .started(let id):
            guard let job = jobs[id] else { return }
            let attempt = state.withLock { state -> Int in
                state.started += 1
                state.live[Int(id.rawValue)] = Live(label: job.label, name: job.name, order: state.started)
                state.labels[job.index] = job.label
                state.attempts[id, default: 0] += 1
                if state.attempts[id] == 1, job.resumesAt > 0 { state.mayResume[id] = job.resumesAt }
                return state.attempts[id] ?? 1
            }
            switch style {
            case .json: emit(["event": "start", "job": job.index, "task": id.rawValue, "url": job.label, "attempt": attempt])
            case .plain: if attempt == 1 { Console.status("\(verb) \(job.label)\n") }
            case .terminal: break
            }
        case .progress(let id, let progress):
            guard let job = jobs[id] else { return }
            state.withLock { $0.live[Int(id.rawValue)]?.progress = progress }
            if let offset = resumed(id, progress: progress), style != .json {
                clearLine()
                Console.status("resuming \(job.label) at \(ByteFormatting.size(offset))\n")
            }
            self.progress(taskID: Int(id.rawValue), progress)
        case .willRetry(let id, let delay):
            state.withLock { $0.retryDelays[id] = delay }
        case .ended(let id, let taskState, let error, let path):
            guard let job = jobs[id] else { return }
            ended(id, job: job, state: taskState, error: error, path: path)
        case .note(let id, let text):
            guard let job = jobs[id] else { return }
            note(text, job: job, task: id)
        case .transferred, .journalChanged:
            break
        }
    }

    /// `resumed(_:progress:)` is the offset task `id` resumed at, the first time its progress
    /// shows it: bytes past the `.part`'s, none below them (the server answered the range;
    /// the `.part` was checked when the run was planned). A download whose bytes fell below
    /// the offset started over (the server sent the whole file): it is not said to resume.
    /// A progress of no bytes (a transfer that knows nothing yet) tells nothing.
    private func resumed(_ id: TaskID, progress: TransferProgress) -> Int64? {
        state.withLock { state in
            guard let offset = state.mayResume[id], progress.receivedBytes != offset, progress.receivedBytes > 0 else { return nil }
            state.mayResume[id] = nil
            return progress.receivedBytes > offset ? offset : nil
        }
    }

    /// `ended(_:job:state:error:path:)` reports the end of a scheduler task's attempt: a saved
    /// file, a retry to come, or a failure (said once, after the retries).
    private func ended(_ id: TaskID, job: Job, state taskState: TaskState, error: String?, path: String?) {
        let (attempt, delay) = state.withLock { state -> (Int, Double?) in
            state.live.removeValue(forKey: Int(id.rawValue))
            state.mayResume[id] = nil
            if taskState == .done { state.finished += 1 }
            return (state.attempts[id] ?? 1, state.retryDelays.removeValue(forKey: id))
        }
        switch taskState {
        case .done:
            var bytes: Int64 = 0
            var status = stat()
            if let path, stat(path, &status) == 0 { bytes = Int64(status.st_size) }
            if style == .json {
                var fields: [String: Any] = ["event": "done", "job": job.index, "task": id.rawValue, "url": job.label, "bytes": bytes]
                if let path { fields["path"] = path }
                emit(fields)
            } else {
                clearLine()
                Console.status("saved \(path ?? job.label) (\(ByteFormatting.size(bytes)))\n")
            }
        case .queued, .failed, .paused:
            // Queued or paused without a message: stopped on purpose (said once for the run).
            guard let error else { return }
            if style == .json {
                var fields: [String: Any] = ["event": taskState == .queued ? "retry" : (taskState == .failed ? "failed" : "paused"),
                                             "job": job.index, "task": id.rawValue, "url": job.label, "error": error, "attempt": attempt]
                if let delay { fields["delay"] = (delay * 10).rounded() / 10 }
                emit(fields)
            } else {
                clearLine()
                let retry = delay.map { "; retrying in \(ByteFormatting.duration($0))" } ?? ""
                Console.error("\(job.label): \(error)\(retry)")
            }
        case .running, .cancelled:
            break
        }
    }

    func started(job: Int, label: String, task: TransferTask, attempt: Int) {
        state.withLock {
            $0.started += 1
            $0.live[task.id] = Live(label: label, name: label, order: $0.started, task: task)
            $0.labels[job] = label
        }
        switch style {
        case .json:
            emit(["event": "start", "job": job, "task": task.id, "url": label, "attempt": attempt])
        case .plain:
            if attempt == 1 { Console.status("\(verb) \(label)\n") }
        case .terminal:
            break
        }
    }

    /// `ended(job:task:outcome:)` reports one attempt's end: a success, or (in JSON) a failure.
    /// A failed attempt is not a line of its own: it is followed by ``finished(job:outcome:)``,
    /// which says what happened once.
    func ended(job: Int, task: TransferTask, outcome: Result<TransferResult, FerryError>) {
        let live = state.withLock { state -> Live? in
            state.live.removeValue(forKey: task.id)
        }
        let label = live?.label ?? ""
        switch outcome {
        case .success(let result):
            state.withLock { $0.finished += 1 }
            let bytes = result.fileURL != nil ? result.bytesReceived : max(result.bytesSent, result.bytesReceived)
            switch style {
            case .json:
                var fields: [String: Any] = ["event": "done", "job": job, "task": task.id, "url": label, "status": result.response.statusCode, "bytes": bytes]
                if let path = result.fileURL?.path { fields["path"] = path }
                emit(fields)
            case .plain, .terminal:
                clearLine()
                // A rejected upload is reported by the reply printer, with the server's message.
                guard result.response.isSuccess || result.fileURL != nil else { return }
                let what = result.fileURL.map { "saved \($0.path)" } ?? "\(label): \(result.response.statusCode) \(result.response.reasonPhrase)"
                Console.status("\(what) (\(ByteFormatting.size(bytes)))\n")
            }
        case .failure(let error):
            if style == .json {
                emit(["event": "failed", "job": job, "task": task.id, "url": label, "error": error.description, "exit_status": Int(error.exitStatus)])
            }
        }
    }

    /// `finished(job:outcome:)` reports a job's final outcome: a failure (other than an
    /// interruption, reported once for the run) is printed here, once, after its retries.
    func finished(job: Int, outcome: Result<TransferResult, FerryError>) {
        guard style != .json, case .failure(let error) = outcome, error != .cancelled else { return }
        let label = state.withLock { $0.labels[job] } ?? ""
        clearLine()
        Console.error("\(label): \(error.description)")
    }

    private func progress(taskID: Int, _ progress: TransferProgress) {
        switch style {
        case .json:
            var fields: [String: Any] = ["event": "progress", "task": taskID, "received": progress.receivedBytes, "sent": progress.sentBytes, "speed": Int(progress.bytesPerSecond)]
            fields["total"] = progress.expectedBytes.map { $0 as Any } ?? NSNull()
            emit(fields)
        case .terminal:
            drawLine()
        case .plain:
            break
        }
    }

    /// Redraws the progress block (``ProgressBlock``) at most 10 times a second, fitted to the
    /// terminal's width at each redraw, so a resize is followed at the next one.
    private func drawLine() {
        let now = clock.now()
        let size = Console.terminalSize ?? (columns: 80, rows: 24)
        state.withLock { state in
            guard now - state.lastLine >= 0.1 else { return }
            state.lastLine = now
            let files = state.live.values.sorted { $0.order < $1.order }.map { live in
                ProgressBlock.File(name: live.name, progress: live.task?.progress ?? live.progress)
            }
            let lines = ProgressBlock.lines(files: files, finished: state.finished, total: state.total,
                                            width: size.columns, maximumFileLines: max(1, min(8, size.rows - 2)))
            // Written under the lock: two threads drawing at once would misplace the block.
            Console.redrawBlock(lines, replacing: state.linesShown)
            state.linesShown = lines.count
        }
    }

    /// `showHead(_:)` prints a request or response head (`-v`) on stderr, masked, above the
    /// progress block (the next redraw puts the block back under it). Shown with `-q` too:
    /// it was asked for by name.
    func showHead(_ trace: HeadTrace) {
        let text = trace.maskedLines.map { $0.displayable + "\n" }.joined()
        guard !text.isEmpty else { return }
        state.withLock { state in
            if style == .terminal {
                Console.clearBlock(state.linesShown)
                state.linesShown = 0
            }
            Console.trace(text)
        }
    }

    /// `note(_:job:task:)` prints what a download did about one of its sources (a mirror
    /// dropped, the next one tried) above the progress block; a `note` event with `--json`.
    func note(_ text: String, job: Job, task: TaskID) {
        if style == .json {
            emit(["event": "note", "job": job.index, "task": task.rawValue, "url": job.label, "message": text])
        } else {
            clearLine()
            Console.status("\(job.name): \(text)\n")
        }
    }

    /// Removes the progress block before a message is printed.
    func clearLine() {
        guard style == .terminal else { return }
        state.withLock { state in
            Console.clearBlock(state.linesShown)
            state.linesShown = 0
        }
    }

    private func emit(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else { return }
        Console.output(text)
    }
}
