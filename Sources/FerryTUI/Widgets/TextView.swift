/// `TextView` draws the full-text view: a frame over the whole screen with the text wrapped
/// to its width, scrolled, a position note in the frame and the view's key hints.
struct TextView {
    let viewer: TextViewer
    let box: Rect
    let width: Int
    let hints: [KeyHint]

    func render(into grid: inout Grid) {
        guard box.width >= 8, box.height >= 4 else { return }
        grid.drawBox(box, title: DisplayText.truncate(DisplayText.sanitize(viewer.title), toWidth: box.width - 16), frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        let visible = inner.height - 1
        let lines = viewer.lines(width: width)
        let first = min(max(0, viewer.scroll), max(0, lines.count - visible))
        for (offset, line) in lines.dropFirst(first).prefix(visible).enumerated() {
            grid.put(line, x: inner.x + 1, y: inner.y + offset, limit: width, style: .dialog)
        }
        let last = min(lines.count, first + visible)
        let position = " \(lines.isEmpty ? 0 : first + 1)-\(last)/\(lines.count) "
        let x = box.maxX - 2 - DisplayWidth.of(position)
        if x > box.x + 2 { grid.put(position, x: x, y: box.y, style: .dialogFrame) }
        HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(inner.height - 1))
    }
}
