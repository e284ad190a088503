extension TUIState {
    /// `handle(_:)` routes a key to the handler of the current mode.
    mutating func handle(_ key: Key) -> [TUIEffect] {
        switch mode {
        case .list: return handleList(key)
        case .filter(let editor): return handleFilter(key, editor: editor)
        case .form(let dialog): return handleForm(key, dialog: dialog)
        case .confirmRemove(let question): return handleConfirm(key, question: question)
        case .help(let scroll): return handleHelp(key, scroll: scroll)
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
        case .addDownload: setMode(.form(.download(directory: environment.defaultDirectory)))
        case .addUpload: setMode(.form(.upload()))
        case .togglePause: return togglePause()
        case .togglePauseAll: return togglePauseAll()
        case .retry: return retry()
        case .remove:
            guard let task = selectedTask else { return noTask() }
            setMode(.confirmRemove(RemovalConfirmation(id: task.id, name: task.name, offersFileDeletion: task.kind == .download)))
        case .moveTaskUp: return moveTask(.up)
        case .moveTaskDown: return moveTask(.down)
        case .filter: setMode(.filter(LineEditor(filter)))
        case .cycleSort:
            cycleSort()
            setMessage(StatusMessage("Sorted by \(sortOrder.label)"))
        case .toggleDetail: toggleDetail()
        case .help: setMode(.help(scroll: 0))
        case .quit:
            finish()
            return [.perform(.quit), .quit]
        case .redraw: return [.redrawAll]
        }
        return []
    }

    private mutating func togglePause() -> [TUIEffect] {
        guard let task = selectedTask else { return noTask() }
        switch task.state {
        case .queued, .running: return [.perform(.pause(task.id))]
        case .paused: return [.perform(.resume(task.id))]
        case .failed, .cancelled:
            setMessage(StatusMessage("The task has stopped; press r to retry it"))
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
            setMessage(StatusMessage("Only failed or cancelled tasks can be retried"))
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

    private mutating func noTask() -> [TUIEffect] {
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
        if let action = keys.edit.action(for: key) {
            editor.apply(action)
        } else if case .character(let character) = key {
            editor.insert(String(character))
        } else {
            return []
        }
        setMode(.filter(editor))
        setFilter(editor.text)
        return []
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
                if let command = dialog.submit(in: environment) {
                    setMode(.list)
                    remember(command, from: dialog)
                    setMessage(StatusMessage(dialog.kind == .download ? "Download added" : "Upload added"))
                    return [.perform(command)]
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
