import FerryQueue

/// The download speed all transfers share, changed from the list (`+`, `-`) or typed in the
/// message line (`L`).
extension TUIState {
    /// `changeOverallLimit(up:)` moves the shared limit one step and shows it at once (the
    /// engine confirms it through the figures).
    mutating func changeOverallLimit(up: Bool) -> [TUIEffect] {
        guard var limits = stats.limits else {
            setMessage(StatusMessage("The engine has not told its limits yet"))
            return []
        }
        limits.overallDownload = limits.overallStepped(up: up, currentSpeed: stats.downloadSpeed)
        return setOverallLimit(limits)
    }

    /// `handleLimitPrompt(_:editor:)` edits the typed limit; Enter applies it (`2M`, `500K`,
    /// `off`), Escape closes the prompt without a change.
    /// With `task`, the prompt is the task's own cap (`l`).
    mutating func handleLimitPrompt(_ key: Key, editor: LineEditor, task: TaskRow.ID? = nil) -> [TUIEffect] {
        var editor = editor
        if let action = keys.filter.action(for: key) {
            setMode(.list)
            guard action == .apply else { return [] }
            let text = editor.text.trimmingCharacters(in: .whitespaces)
            var rate: Int64?
            if text.lowercased() != "off" && !text.isEmpty {
                do throws(QueueError) {
                    rate = try TaskOptions.parseRate(text)
                } catch {
                    setMessage(StatusMessage(error.description, isError: true))
                    return []
                }
            }
            if let task {
                setMessage(StatusMessage(rate.map { "#\(task) at most \(TransferLimits.rateText($0))/s" } ?? "#\(task) has no limit of its own"))
                return [.perform(.setTaskLimit(task, rate))]
            }
            guard var limits = stats.limits else { return [] }
            limits.overallDownload = rate
            return setOverallLimit(limits)
        }
        guard edits(&editor, with: key) else { return [] }
        setMode(task.map { .taskLimitPrompt(editor, $0) } ?? .limitPrompt(editor))
        return []
    }

    private mutating func setOverallLimit(_ limits: TransferLimits) -> [TUIEffect] {
        showLimits(limits)
        if let rate = limits.overallDownload {
            setMessage(StatusMessage("All downloads together at most \(TransferLimits.rateText(rate))/s"))
        } else {
            setMessage(StatusMessage("No shared download limit"))
        }
        return [.perform(.setLimits(limits))]
    }
}
