import FerryQueue

/// A download's new URL, typed in the message line (`R`): an expired link replaced.
extension TUIState {
    /// `openRetargetPrompt()` opens the prompt for the selected download's new URL, empty; a
    /// running or finished download, or an upload, is said to be one that cannot take one.
    mutating func openRetargetPrompt() -> [TUIEffect] {
        guard let task = selectedTask else { return noTask() }
        guard task.kind == .download else {
            setMessage(StatusMessage("Only a download can be given a new URL"))
            return []
        }
        guard task.state != .running, task.state != .done, task.state != .cancelled else {
            setMessage(StatusMessage(task.state == .running ? "Pause #\(task.id) first, then give it its new URL" : "#\(task.id) is \(task.state.label): nothing to fetch"))
            return []
        }
        setMode(.retargetPrompt(LineEditor(""), task.id))
        return []
    }

    /// `handleRetargetPrompt(_:editor:task:)` edits the typed URLs (the first tried first, the
    /// others its mirrors, separated by spaces); Enter gives them to the download, Escape
    /// closes the prompt without a change. A URL that is not one is said, and nothing changes.
    mutating func handleRetargetPrompt(_ key: Key, editor: LineEditor, task: TaskRow.ID) -> [TUIEffect] {
        var editor = editor
        if let action = keys.filter.action(for: key) {
            setMode(.list)
            guard action == .apply else { return [] }
            let texts = editor.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !texts.isEmpty else { return [] }
            var urls: [TransferURL] = []
            for text in texts {
                do throws(QueueError) {
                    urls.append(try TransferURL(validating: text))
                } catch {
                    setMessage(StatusMessage(error.description, isError: true))
                    return []
                }
            }
            setMessage(StatusMessage("#\(task) goes on from \(urls[0].masked); its bytes are kept only if it serves the same file"))
            return [.perform(.retarget(task, urls))]
        }
        guard edits(&editor, with: key) else { return [] }
        setMode(.retargetPrompt(editor, task))
        return []
    }
}
