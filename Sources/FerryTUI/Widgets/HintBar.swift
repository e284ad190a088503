/// `HintBar` draws key hints ("a Add  u Upload …") on one row, dropping the hints that do
/// not fit instead of cutting one in half.
struct HintBar {
    /// `hints` are the entries, in order, as produced by a `KeyMap`.
    let hints: [KeyHint]
    /// `textStyle` is the style of the labels and the gaps.
    let textStyle: Style

    init(_ hints: [KeyHint], textStyle: Style = .hintText) {
        self.hints = hints
        self.textStyle = textStyle
    }

    func render(into grid: inout Grid, area: Rect) {
        guard !area.isEmpty else { return }
        grid.fill(area.row(0), style: textStyle)
        var x = area.x + 1
        for hint in hints {
            let needed = DisplayWidth.of(hint.key) + 1 + DisplayWidth.of(hint.label)
            if x + needed > area.maxX { break }
            x += grid.put(hint.key, x: x, y: area.y, style: .hintKey)
            x += 1
            x += grid.put(hint.label, x: x, y: area.y, style: textStyle)
            x += 2
        }
    }
}
