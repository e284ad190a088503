import FerryQueue
#if canImport(Glibc)
import Glibc
#endif

extension QueueController {
    /// `execute(_:)` carries out one command on the worker: through the activity (the engine
    /// makes every change), or on the journal when there is none, then the changed rows.
    /// Failures are reported in the dialog that produced the command (adds) or in the message
    /// line (everything else).
    func execute(_ command: TUICommand) {
        switch command {
        case .addDownload(let request):
            add(command) { () throws(FieldProblem) in
                try TaskSubmission.download(request, isInUse: { self.isActiveDestination($0) })
            }
        case .addUpload(let request):
            add(command) { () throws(FieldProblem) in try TaskSubmission.upload(request) }
        case .pause(let id):
            change(TaskID(id), to: .paused, through: activity?.pause)
        case .resume(let id):
            change(TaskID(id), to: .queued, through: activity?.resume)
        case .retry(let id):
            change(TaskID(id), to: .queued, through: activity?.retry)
        case .pauseAll:
            changeAll(from: [.queued, .running], to: .paused, through: activity.map { activity in { activity.pause($0) } })
        case .resumeAll:
            changeAll(from: [.paused], to: .queued, through: activity.map { activity in { activity.resume($0) } })
        case .remove(let id, let deleteFile):
            remove(TaskID(id), deleteFile: deleteFile)
        case .purge(let states):
            purge(states)
        case .move(let id, let direction):
            edit(.move(TaskID(id), up: direction == .up)) { outcome in
                if case .failed(let message) = outcome { self.post([.message(StatusMessage(message, isError: true))]) }
                self.answer(reading: true)
            }
        case .setLimits(let limits):
            activity?.setLimits(limits)
        case .setTaskLimit(let id, let rate):
            if let activity {
                activity.setTaskLimit(TaskID(id), rate)
            } else {
                do {
                    try journal.setMaxDownloadLimit(rate, for: TaskID(id))
                } catch {
                    report(error)
                }
            }
        case .retarget(let id, let urls):
            retarget(TaskID(id), to: urls)
        case .quit, .quitAndStop:
            break
        }
    }

    /// `edit(_:then:)` has the queue's rows changed: by the engine when there is one (the
    /// front end writes no row itself), else on the journal (`JournalEdits`); `then` runs on
    /// the worker with the outcome.
    private func edit(_ edit: QueueEdit, then handle: @escaping @Sendable (QueueEditOutcome) -> Void) {
        guard let activity else {
            handle(JournalEdits.apply(edit, to: journal))
            return
        }
        activity.edit(edit) { [worker] outcome in
            worker.async { handle(outcome) }
        }
    }

    /// `retarget(_:to:)` gives a download new URLs (`Journal.retarget`); a paused or failed
    /// one (a link that expired waits paused) is queued again. One that is running or finished
    /// is said to be left as it is.
    private func retarget(_ id: TaskID, to urls: [TransferURL]) {
        edit(.retarget(id, urls)) { outcome in
            switch outcome {
            case .refused:
                self.post([.message(StatusMessage("#\(id.rawValue) cannot take a new URL now (running or finished): pause it first", isError: true))])
            case .failed(let message):
                self.post([.message(StatusMessage(message, isError: true))])
            case .done:
                break
            }
            self.answer(reading: true)
        }
    }

    private func add(_ command: TUICommand, _ makeTask: () throws(FieldProblem) -> NewTask) {
        let task: NewTask
        do throws(FieldProblem) {
            task = try makeTask()
        } catch {
            post([.rejected(command, error)])
            return
        }
        edit(.add(task)) { outcome in
            guard case .done = outcome else {
                let message = if case .failed(let text) = outcome { text } else { "the task was not added" }
                self.post([.rejected(command, FieldProblem(message))])
                return
            }
            if case .addDownload(let request) = command { self.directoryMemory?.save(request.directory) }
            self.answer(reading: true)
        }
    }

    /// `purge(_:)` removes every task in `states` (finished states only; files are kept) and
    /// says how many went.
    private func purge(_ states: Set<TaskState>) {
        let finished = states.intersection([.done, .failed, .cancelled])
        guard !finished.isEmpty else { return }
        edit(.purge(finished)) { outcome in
            switch outcome {
            case .done(let removed):
                let names = finished.map(\.label).sorted().joined(separator: " or ")
                self.post([.message(StatusMessage("Removed \(removed) \(names) task\(removed == 1 ? "" : "s"); files kept"))])
            case .failed(let message):
                self.post([.message(StatusMessage(message, isError: true))])
            case .refused:
                break
            }
            self.answer(reading: true)
        }
    }

    private func change(_ id: TaskID, to target: TaskState, through engine: ((TaskID) -> Void)?) {
        if let engine {
            engine(id)
            return
        }
        do {
            try journal.updateState(id, to: target)
        } catch {
            report(error)
        }
        answer(reading: true)
    }

    private func changeAll(
        from states: Set<TaskState>, to target: TaskState, through engine: (([TaskID]) -> Void)?
    ) {
        var ids: [TaskID] = []
        do {
            try journal.forEachSummary(labels: false) { summary in
                if states.contains(summary.state) { ids.append(summary.id) }
            }
        } catch {
            report(error)
            return
        }
        if let engine {
            // One request for all: the engine changes the journal in one commit.
            engine(ids)
            return
        }
        var failure: QueueError?
        for id in ids {
            do {
                try journal.updateState(id, to: target)
            } catch {
                // Another process may have moved it meanwhile; the rest still change.
                failure = failure ?? error
            }
        }
        if let failure { report(failure) }
        answer(reading: true)
    }

    private func remove(_ id: TaskID, deleteFile: Bool) {
        if let activity {
            activity.remove(id, deleteFile: deleteFile)
            return
        }
        do {
            let record = try journal.task(id)
            _ = try journal.remove([id])
            if deleteFile, let record { deleteFiles(of: record) }
        } catch {
            report(error)
        }
        answer(reading: true)
    }

    /// `isActiveDestination(_:)` is true when an unfinished download already saves to `path`
    /// (one pass over the queue's names; a failed read lets the add go on).
    private func isActiveDestination(_ path: String) -> Bool {
        var found = false
        do {
            try journal.forEachSummary(labels: true) { summary in
                guard !found, summary.kind == .download, summary.state != .done, summary.state != .cancelled,
                      let label = summary.label else { return }
                found = TaskRow.destination(kind: summary.kind, label: label) == path
            }
        } catch {
            return false
        }
        return found
    }

    /// `deleteFiles(of:)` deletes a download's partial file and, once done, its final file;
    /// a symbolic link is removed, never followed. Missing files are not an error.
    private func deleteFiles(of record: TaskRecord) {
        guard record.kind == .download else { return }
        let planned = TaskRow.destination(of: record)
        var paths = [planned + ".part"]
        if let finalPath = record.finalPath {
            paths.append(finalPath + ".part")
            if record.state == .done { paths.append(finalPath) }
        }
        for path in Set(paths) where unlink(path) != 0 && errno != ENOENT {
            post([.message(StatusMessage("Cannot delete \(path): \(String(cString: strerror(errno)))", isError: true))])
        }
    }
}
