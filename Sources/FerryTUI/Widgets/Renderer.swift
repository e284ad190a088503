/// `Renderer` turns a `TUIState` into a `Grid`. It is a pure function: the same state gives
/// the same grid, and it draws nothing itself.
public enum Renderer {
    /// `render(_:)` draws the whole screen for `state`, modal dialogs on top.
    public static func render(_ state: TUIState) -> Grid {
        let layout = state.layout
        var grid = Grid(size: layout.size)
        if layout.isTooSmall {
            TooSmallView().render(into: &grid)
            return grid
        }
        HeaderView(stats: state.stats).render(into: &grid, area: layout.header)
        TaskTableView(
            source: state,
            selectedIndex: state.selectedIndex,
            scrollTop: state.scrollTop,
            tick: state.tick,
            caption: caption(for: state),
            emptyNote: state.filter.isEmpty
                ? "No tasks. Press a to add a download or u to add an upload."
                : "No task matches “\(DisplayText.sanitize(state.filter))”."
        ).render(into: &grid, header: layout.columnHeader, body: layout.table)
        if let detail = layout.detail {
            DetailView(task: state.selectedTask).render(into: &grid, area: detail)
        }
        var prompt: LineEditor?
        var promptLabel = "Filter: "
        let hints: [KeyHint]
        switch state.mode {
        case .list: hints = listHints(for: state)
        case .filter(let editor):
            hints = state.keys.filter.hints
            prompt = editor
        case .limitPrompt(let editor):
            hints = state.keys.filter.hints
            prompt = editor
            promptLabel = "Shared download limit (2M, 500K, off): "
        case .taskLimitPrompt(let editor, let id):
            hints = state.keys.filter.hints
            prompt = editor
            promptLabel = "#\(id) download limit (2M, 500K, off): "
        case .retargetPrompt(let editor, let id):
            hints = state.keys.filter.hints
            prompt = editor
            promptLabel = "#\(id) new URL: "
        case .form: hints = state.keys.form.hints
        case .confirmRemove(let question): hints = answers(to: question, keys: state.keys)
        case .confirmPurge(let question): hints = answers(to: question, keys: state.keys)
        case .confirmStop: hints = state.keys.stop.hints
        // The help and the full text cover the screen and draw their own hints: none under them.
        case .help, .text: hints = []
        }
        FooterView(hints: hints, message: state.message, prompt: prompt, promptLabel: promptLabel)
            .render(into: &grid, hintsArea: layout.hints, messageArea: layout.message)
        switch state.mode {
        case .list, .filter, .limitPrompt, .taskLimitPrompt, .retargetPrompt:
            break
        case .form(let dialog):
            grid.cursor = nil
            FormDialogView(dialog: dialog, hints: state.keys.form.hints).render(into: &grid, area: grid.bounds)
        case .confirmRemove(let question):
            ConfirmDialogView(question: question, hints: answers(to: question, keys: state.keys))
                .render(into: &grid, area: grid.bounds)
        case .confirmPurge(let question):
            QuestionDialogView(
                title: "Remove finished tasks",
                lines: ["\(question.done) done, \(question.failed) failed. Remove which from the list?", "Their files are kept."],
                hints: answers(to: question, keys: state.keys)
            ).render(into: &grid, area: grid.bounds)
        case .confirmStop(let question):
            QuestionDialogView(
                title: "Stop the transfers",
                lines: ["\(question.running) running, \(question.queued) queued. Quit and stop them?",
                        "They stay queued; ferry starts them again."],
                hints: state.keys.stop.hints
            ).render(into: &grid, area: grid.bounds)
        case .help(let scroll):
            HelpView(keys: state.keys, scroll: scroll, box: layout.helpBox, hints: state.keys.help.hints).render(into: &grid)
        case .text(let viewer):
            TextView(viewer: viewer, box: layout.textBox, width: layout.textWidth, hints: state.keys.text.hints).render(into: &grid)
        }
        return grid
    }

    /// `answers(to:keys:)` are the confirmation's key hints, without file deletion when it is not offered.
    static func answers(to question: RemovalConfirmation, keys: KeyMaps) -> [KeyHint] {
        keys.confirm.hints { question.offersFileDeletion || $0 != .removeAndDeleteFile }
    }

    /// `answers(to:keys:)` are the purge question's key hints, without the answers that have nothing to remove.
    static func answers(to question: PurgeQuestion, keys: KeyMaps) -> [KeyHint] {
        keys.purge.hints { question.offers($0) }
    }

    /// `listHints(for:)` are the task list's key hints; the pause key says "Resume" on a paused task.
    static func listHints(for state: TUIState) -> [KeyHint] {
        let paused = state.selectedTask?.state == .paused
        return state.keys.list.hints(where: { _ in true }, alternate: { $0 == .togglePause && paused })
    }

    /// `caption(for:)` describes the table's order and filter next to the "Name" title.
    static func caption(for state: TUIState) -> String {
        var parts: [String] = []
        if state.sortOrder != .queue { parts.append("by \(state.sortOrder.label)") }
        if !state.filter.isEmpty {
            parts.append("/\(DisplayText.sanitize(state.filter)) \(state.listCount)/\(state.stats.total)")
        }
        return parts.joined(separator: " · ")
    }
}
