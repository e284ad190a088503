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
    mutating func handleLimitPrompt(_ key: Key, editor: LineEditor) -> [TUIEffect] {
        var editor = editor
        if let action = keys.filter.action(for: key) {
            setMode(.list)
            guard action == .apply, var limits = stats.limits else { return [] }
            let text = editor.text.trimmingCharacters(in: .whitespaces)
            if text.lowercased() == "off" || text.isEmpty {
                limits.overallDownload = nil
            } else {
                do throws(QueueError) {
                    limits.overallDownload = try TaskOptions.parseRate(text)
                } catch {
                    setMessage(StatusMessage(error.description, isError: true))
                    return []
                }
            }
            return setOverallLimit(limits)
        }
        if let action = keys.edit.action(for: key) {
            editor.apply(action)
        } else if case .character(let character) = key {
            editor.insert(String(character))
        } else {
            return []
        }
        setMode(.limitPrompt(editor))
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
