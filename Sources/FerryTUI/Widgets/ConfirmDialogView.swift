/// `ConfirmDialogView` draws the remove confirmation: the task's name, what happens to its
/// file, and the answers from the confirmation key map.
struct ConfirmDialogView {
    static let preferredWidth = 60

    let question: RemovalConfirmation
    let hints: [KeyHint]

    func render(into grid: inout Grid, area: Rect) {
        let box = area.centered(width: Self.preferredWidth, height: 6)
        guard box.width >= 8, box.height >= 3 else { return }
        grid.drawBox(box, title: "Remove task", frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        let name = DisplayText.sanitize(question.name)
        let quoted = "Remove “" + DisplayText.truncate(name, toWidth: max(1, inner.width - 12)) + "”?"
        grid.put(quoted, x: inner.x + 1, y: inner.y, limit: inner.width - 1, style: .dialog)
        let note = question.offersFileDeletion ? "The file is kept unless you choose to delete it." : "Local files are never deleted."
        if inner.height > 2 {
            grid.put(DisplayText.truncate(note, toWidth: inner.width - 2), x: inner.x + 1, y: inner.y + 1, style: .dialog)
        }
        if inner.height > 1 {
            HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(inner.height - 1))
        }
    }
}
