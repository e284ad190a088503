/// `FooterView` draws the two bottom rows: the key hints of the current mode and the
/// message line, which becomes the filter prompt while the filter is edited.
struct FooterView {
    let hints: [KeyHint]
    let message: StatusMessage?
    /// `prompt` is the editor of the open prompt (the filter, a limit); its text is shown
    /// highlighted while it is selected.
    let prompt: LineEditor?
    /// `promptLabel` is written before the prompt's text, "Filter: " by default.
    var promptLabel = "Filter: "

    func render(into grid: inout Grid, hintsArea: Rect, messageArea: Rect) {
        HintBar(hints).render(into: &grid, area: hintsArea)
        guard !messageArea.isEmpty else { return }
        grid.fill(messageArea.row(0), style: .normal)
        if let prompt {
            let x = messageArea.x + grid.put(promptLabel, x: messageArea.x, y: messageArea.y, limit: messageArea.width, style: .label)
            let view = prompt.viewport(width: messageArea.maxX - x)
            grid.put(view.text, x: x, y: messageArea.y, limit: messageArea.maxX - x, style: prompt.isSelected ? .selectedText : .normal)
            if x < messageArea.maxX { grid.cursor = Point(x: x + view.cursorColumn, y: messageArea.y) }
        } else if let message {
            let text = DisplayText.truncate(DisplayText.sanitize(message.text), toWidth: messageArea.width - 1)
            grid.put(text, x: messageArea.x + 1, y: messageArea.y, style: message.isError ? .error : .message)
        }
    }
}
