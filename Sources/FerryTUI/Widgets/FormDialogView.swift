/// `FormDialogView` draws an add dialog centred on the screen: one row per field, the
/// validation problem, and the dialog's key hints. It places the cursor in the focused field.
struct FormDialogView {
    static let preferredWidth = 72

    let dialog: FormDialog
    let hints: [KeyHint]

    func render(into grid: inout Grid, area: Rect) {
        let box = area.centered(width: Self.preferredWidth, height: dialog.fields.count + 4)
        guard box.width >= 8, box.height >= 3 else { return }
        grid.drawBox(box, title: dialog.title, frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        let labelWidth = min(dialog.fields.map { DisplayWidth.of($0.label) }.max() ?? 0, inner.width / 3)
        let fieldX = inner.x + 1 + labelWidth + 1
        let fieldWidth = inner.maxX - 1 - fieldX
        for (index, field) in dialog.fields.enumerated() {
            let y = inner.y + index
            guard y < inner.maxY else { break }
            // The field a failed Enter found a problem in is marked, label and field.
            let inError = index == dialog.problemField
            grid.put(DisplayText.truncate(field.label, toWidth: labelWidth), x: inner.x + 1, y: y, style: inError ? .dialogError : .dialog)
            guard fieldWidth > 0 else { continue }
            let focused = index == dialog.focus
            let rect = Rect(x: fieldX, y: y, width: fieldWidth, height: 1)
            let style: Style = inError ? .fieldError : focused ? .fieldFocused : .field
            grid.fill(rect, style: style)
            if focused {
                let view = field.editor.viewport(width: fieldWidth)
                grid.put(view.text, x: fieldX, y: y, limit: fieldWidth, style: style)
                grid.cursor = Point(x: fieldX + view.cursorColumn, y: y)
            } else if field.editor.characters.isEmpty {
                grid.put(DisplayText.truncate(field.placeholder, toWidth: fieldWidth), x: fieldX, y: y, style: .fieldPlaceholder)
            } else {
                let view = field.editor.viewport(width: fieldWidth)
                grid.put(view.text, x: fieldX, y: y, limit: fieldWidth, style: style)
            }
        }
        let problemY = inner.y + dialog.fields.count
        if let problem = dialog.problem, problemY < inner.maxY {
            let text = DisplayText.truncate(DisplayText.sanitize(problem), toWidth: inner.width - 2)
            grid.put(text, x: inner.x + 1, y: problemY, style: .dialogError)
        } else if let note = dialog.note, problemY < inner.maxY {
            grid.put(DisplayText.truncate(note, toWidth: inner.width - 2), x: inner.x + 1, y: problemY, style: .dialog)
        }
        if problemY + 1 < inner.maxY {
            HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(problemY + 1 - inner.y))
        }
    }
}
