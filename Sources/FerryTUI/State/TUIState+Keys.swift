extension TUIState {
    /// `handle(_:)` routes a key to the handler of the current mode.
    mutating func handle(_ key: Key) -> [TUIEffect] {
        switch mode {
        case .list: return handleList(key)
        case .filter(let editor): return handleFilter(key, editor: editor)
        case .limitPrompt(let editor): return handleLimitPrompt(key, editor: editor)
        case .taskLimitPrompt(let editor, let id): return handleLimitPrompt(key, editor: editor, task: id)
        case .retargetPrompt(let editor, let id): return handleRetargetPrompt(key, editor: editor, task: id)
        case .form(let dialog): return handleForm(key, dialog: dialog)
        case .confirmRemove(let question): return handleConfirm(key, question: question)
        case .confirmPurge(let question): return handlePurge(key, question: question)
        case .confirmStop: return handleStop(key)
        case .help(let scroll): return handleHelp(key, scroll: scroll)
        case .text(let viewer): return handleText(key, viewer: viewer)
        }
    }

    /// `handlePaste(_:)` takes pasted text: into the open dialog's field or the filter, or,
    /// in the list, into a new add-download dialog (when the key map binds `.paste`). It is
    /// never read as keys; modals that take no text ignore it.
    mutating func handlePaste(_ text: String) {
        switch mode {
        case .list:
            guard keys.list.action(for: .paste) == .addPasted, !FormDialog.pastedLines(text).isEmpty else { return }
            setMessage(nil)
            var dialog = FormDialog.download(directory: addDirectory)
            dialog.paste(text)
            setMode(.form(dialog))
        case .filter(var editor):
            editor.insert(FormDialog.pastedLines(text).joined(separator: " "))
            setMode(.filter(editor))
            setFilter(editor.text)
        case .limitPrompt(var editor):
            editor.insert(FormDialog.pastedLines(text).joined())
            setMode(.limitPrompt(editor))
        case .taskLimitPrompt(var editor, let id):
            editor.insert(FormDialog.pastedLines(text).joined())
            setMode(.taskLimitPrompt(editor, id))
        case .retargetPrompt(var editor, let id):
            editor.insert(FormDialog.pastedLines(text).joined(separator: " "))
            setMode(.retargetPrompt(editor, id))
        case .form(var dialog):
            dialog.paste(text)
            setMode(.form(dialog))
        case .confirmRemove, .confirmPurge, .confirmStop, .help, .text:
            break
        }
    }

    private mutating func handleList(_ key: Key) -> [TUIEffect] {
        guard let action = keys.list.action(for: key) else { return [] }
        setMessage(nil)
        let page = max(1, layout.tableRows - 1)
        switch action {
        case .moveUp: select(selectedIndex - 1)
        case .moveDown: select(selectedIndex + 1)
        case .pageUp: select(selectedIndex - page)
        case .pageDown: select(selectedIndex + page)
        case .first: select(0)
        case .last: select(listCount - 1)
        case .addDownload: setMode(.form(.download(directory: addDirectory)))
        case .addUpload: setMode(.form(.upload()))
        case .togglePause: return togglePause()
        case .togglePauseAll: return togglePauseAll()
        case .retry: return retry()
        case .remove:
            guard let task = selectedTask else { return noTask() }
            setMode(.confirmRemove(RemovalConfirmation(id: task.id, name: task.name, offersFileDeletion: task.kind == .download)))
        case .purge:
            let question = PurgeQuestion(done: stats.count(.done), failed: stats.count(.failed))
            guard question.done + question.failed > 0 else {
                setMessage(StatusMessage("No done or failed tasks to remove"))
                return []
            }
            setMode(.confirmPurge(question))
        case .moveTaskUp: return moveTask(.up)
        case .moveTaskDown: return moveTask(.down)
        case .filter: setMode(.filter(LineEditor(filter)))
        case .clearFilter: if !filter.isEmpty { setFilter("") }
        case .viewText:
            guard let task = selectedTask else { return noTask() }
            setMode(.text(TextViewer(title: task.name, text: DetailView.fullText(for: task))))
        case .addPasted: break
        case .cycleSort:
            cycleSort()
            setMessage(StatusMessage("Sorted by \(sortOrder.label)"))
        case .toggleDetail: toggleDetail()
        case .help: setMode(.help(scroll: 0))
        case .quit:
            finish()
            return [.perform(.quit), .quit]
        case .fasterOverall: return changeOverallLimit(up: true)
        case .slowerOverall: return changeOverallLimit(up: false)
        case .typeTaskLimit:
            guard let task = selectedTask else { return noTask() }
            guard task.kind == .download else {
                setMessage(StatusMessage("Only downloads have a speed limit"))
                return []
            }
            // The task's own cap, selected: typing replaces it.
            setMode(.taskLimitPrompt(LineEditor(task.speedLimit.map(TransferLimits.rateText) ?? "", selected: true), task.id))
            return []
        case .typeRetarget: return openRetargetPrompt()
        case .typeOverallLimit:
            guard let limits = stats.limits else {
                setMessage(StatusMessage("The engine has not told its limits yet"))
                return []
            }
            setMode(.limitPrompt(LineEditor(limits.overallDownload.map(TransferLimits.rateText) ?? "", selected: true)))
            return []
        case .moreAtOnce: return changeLimits(concurrent: 1, perHost: 0)
        case .fewerAtOnce: return changeLimits(concurrent: -1, perHost: 0)
        case .morePerHost: return changeLimits(concurrent: 0, perHost: 1)
        case .fewerPerHost: return changeLimits(concurrent: 0, perHost: -1)
        case .quitAndStop:
            setMode(.confirmStop(StopQuestion(running: stats.count(.running), queued: stats.count(.queued))))
        case .redraw: return [.redrawAll]
        }
        return []
    }

    private mutating func togglePause() -> [TUIEffect] {
        guard let task = selectedTask else { return noTask() }
        switch task.state {
        case .queued, .running: return [.perform(.pause(task.id))]
        case .paused: return [.perform(.resume(task.id))]
        case .failed:
            setMessage(StatusMessage("The task has stopped; press r to retry it"))
        case .cancelled:
            setMessage(StatusMessage("The task was cancelled: it does not run again (x removes it)"))
        case .done:
            setMessage(StatusMessage("The task is already done"))
        }
        return []
    }

    private mutating func togglePauseAll() -> [TUIEffect] {
        if stats.count(.running) + stats.count(.queued) > 0 { return [.perform(.pauseAll)] }
        if stats.count(.paused) > 0 { return [.perform(.resumeAll)] }
        setMessage(StatusMessage("Nothing to pause or resume"))
        return []
    }

    private mutating func retry() -> [TUIEffect] {
        guard let task = selectedTask else { return noTask() }
        guard task.state.canRetry else {
            setMessage(StatusMessage(task.state == .cancelled ? "A cancelled task does not run again (x removes it)" : "Only failed tasks can be retried"))
            return []
        }
        return [.perform(.retry(task.id))]
    }

    private mutating func moveTask(_ direction: MoveDirection) -> [TUIEffect] {
        guard let task = selectedTask else { return noTask() }
        guard sortOrder == .queue else {
            setMessage(StatusMessage("Tasks can be moved in queue order only; press s to change the order"))
            return []
        }
        return [.perform(.move(task.id, direction))]
    }

    mutating func noTask() -> [TUIEffect] {
        setMessage(StatusMessage("No task selected"))
        return []
    }

    private mutating func handleFilter(_ key: Key, editor: LineEditor) -> [TUIEffect] {
        var editor = editor
        if let action = keys.filter.action(for: key) {
            switch action {
            case .apply:
                setMode(.list)
            case .clear:
                setMode(.list)
                setFilter("")
            }
            return []
        }
        guard edits(&editor, with: key) else { return [] }
        setMode(.filter(editor))
        setFilter(editor.text)
        return []
    }

    /// `edits(_:with:)` applies an editing key or types a character into a prompt's `editor`;
    /// false for any other key (the prompt ignores it).
    func edits(_ editor: inout LineEditor, with key: Key) -> Bool {
        if let action = keys.edit.action(for: key) {
            editor.apply(action)
        } else if case .character(let character) = key {
            editor.insert(String(character))
        } else {
            return false
        }
        return true
    }

    private mutating func handleForm(_ key: Key, dialog: FormDialog) -> [TUIEffect] {
        var dialog = dialog
        if let action = keys.form.action(for: key) {
            switch action {
            case .nextField: dialog.focusNext()
            case .previousField: dialog.focusPrevious()
            case .cancel:
                setMode(.list)
                return []
            case .submit:
                if let commands = dialog.submit(in: environment) {
                    setMode(.list)
                    if commands.count == 1 { remember(commands[0], from: dialog) } else { forgetSubmitted() }
                    if let directory = dialog.directory(in: environment) { setAddDirectory(directory) }
                    let added = dialog.kind == .upload ? "Upload added"
                        : commands.count == 1 ? "Download added" : "\(commands.count) downloads added"
                    setMessage(StatusMessage(added))
                    return commands.map { .perform($0) }
                }
            }
        } else if let action = keys.edit.action(for: key) {
            dialog.edit(action)
        } else if case .character(let character) = key {
            dialog.insert(String(character))
        } else {
            return []
        }
        setMode(.form(dialog))
        return []
    }

    private mutating func handleConfirm(_ key: Key, question: RemovalConfirmation) -> [TUIEffect] {
        guard let action = keys.confirm.action(for: key) else { return [] }
        switch action {
        case .cancel:
            setMode(.list)
            return []
        case .remove:
            setMode(.list)
            return [.perform(.remove(question.id, deleteFile: false))]
        case .removeAndDeleteFile:
            guard question.offersFileDeletion else { return [] }
            setMode(.list)
            return [.perform(.remove(question.id, deleteFile: true))]
        }
    }

    private mutating func handlePurge(_ key: Key, question: PurgeQuestion) -> [TUIEffect] {
        guard let action = keys.purge.action(for: key), question.offers(action) else { return [] }
        setMode(.list)
        switch action {
        case .cancel: return []
        case .removeDone: return [.perform(.purge([.done]))]
        case .removeFailed: return [.perform(.purge([.failed]))]
        }
    }

    /// `changeLimits(concurrent:perHost:)` moves the engine's limits by the given steps and
    /// shows the new ones at once (the engine confirms them through the figures).
    private mutating func changeLimits(concurrent: Int, perHost: Int) -> [TUIEffect] {
        guard let limits = stats.limits else {
            setMessage(StatusMessage("The engine has not told its limits yet"))
            return []
        }
        let changed = TransferLimits(maximumConcurrent: limits.maximumConcurrent + concurrent,
                                     maximumPerHost: limits.maximumPerHost + perHost)
        guard changed != limits else {
            setMessage(StatusMessage("Limits stay between \(TransferLimits.range.lowerBound) and \(TransferLimits.range.upperBound)"))
            return []
        }
        showLimits(changed)
        setMessage(StatusMessage("At most \(changed.maximumConcurrent) transfers at once, \(changed.maximumPerHost) to one host"))
        return [.perform(.setLimits(changed))]
    }

    private mutating func handleStop(_ key: Key) -> [TUIEffect] {
        guard let action = keys.stop.action(for: key) else { return [] }
        setMode(.list)
        switch action {
        case .cancel: return []
        case .stop:
            finish()
            return [.perform(.quitAndStop), .quit]
        }
    }

    private mutating func handleText(_ key: Key, viewer: TextViewer) -> [TUIEffect] {
        guard let action = keys.text.action(for: key) else { return [] }
        let page = max(1, layout.textLines - 1)
        var viewer = viewer
        switch action {
        case .close:
            setMode(.list)
            return []
        case .scrollUp: viewer.scroll -= 1
        case .scrollDown: viewer.scroll += 1
        case .pageUp: viewer.scroll -= page
        case .pageDown: viewer.scroll += page
        case .top: viewer.scroll = 0
        case .bottom: viewer.scroll = Int.max / 2
        }
        viewer.scroll = clampedTextScroll(viewer.scroll, of: viewer)
        setMode(.text(viewer))
        return []
    }

    private mutating func handleHelp(_ key: Key, scroll: Int) -> [TUIEffect] {
        guard let action = keys.help.action(for: key) else { return [] }
        let page = max(1, layout.helpLines - 1)
        switch action {
        case .close:
            setMode(.list)
            return []
        case .scrollUp: setMode(.help(scroll: clampedHelpScroll(scroll - 1)))
        case .scrollDown: setMode(.help(scroll: clampedHelpScroll(scroll + 1)))
        case .pageUp: setMode(.help(scroll: clampedHelpScroll(scroll - page)))
        case .pageDown: setMode(.help(scroll: clampedHelpScroll(scroll + page)))
        }
        return []
    }
}
