/// `PurgeDialogView` draws the question that removes finished tasks: how many are done and
/// failed, that files are kept, and the answers the question offers.
struct PurgeDialogView {
    static let preferredWidth = 60

    let question: PurgeQuestion
    let hints: [KeyHint]

    func render(into grid: inout Grid, area: Rect) {
        let box = area.centered(width: Self.preferredWidth, height: 6)
        guard box.width >= 8, box.height >= 3 else { return }
        grid.drawBox(box, title: "Remove finished tasks", frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        let counts = "\(question.done) done, \(question.failed) failed. Remove which from the list?"
        grid.put(DisplayText.truncate(counts, toWidth: inner.width - 2), x: inner.x + 1, y: inner.y, style: .dialog)
        if inner.height > 2 {
            grid.put(DisplayText.truncate("Their files are kept.", toWidth: inner.width - 2), x: inner.x + 1, y: inner.y + 1, style: .dialog)
        }
        if inner.height > 1 {
            HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(inner.height - 1))
        }
    }
}
