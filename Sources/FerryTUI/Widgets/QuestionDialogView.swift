/// `QuestionDialogView` draws a small question box: a title, up to two lines of text and the
/// answers' key hints on its last line.
struct QuestionDialogView {
    static let preferredWidth = 60

    let title: String
    let lines: [String]
    let hints: [KeyHint]

    func render(into grid: inout Grid, area: Rect) {
        let box = area.centered(width: Self.preferredWidth, height: 6)
        guard box.width >= 8, box.height >= 3 else { return }
        grid.drawBox(box, title: title, frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        // The last inner row holds the hints; the lines above it, as many as fit.
        for (index, line) in lines.prefix(max(0, inner.height - 1)).enumerated() where index == 0 || inner.height > 2 {
            grid.put(DisplayText.truncate(line, toWidth: inner.width - 2), x: inner.x + 1, y: inner.y + index, style: .dialog)
        }
        if inner.height > 1 {
            HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(inner.height - 1))
        }
    }
}
