/// `HelpView` draws the help screen: every key map's bindings, section by section, as
/// produced by the key maps themselves.
struct HelpView {
    static let keyColumn = 16

    let keys: KeyMaps
    let scroll: Int
    let box: Rect
    let hints: [KeyHint]

    /// `lines(keys:)` are the help screen's rows: section titles (`isTitle`) and entries.
    static func lines(keys: KeyMaps) -> [(keys: String, text: String, isTitle: Bool)] {
        var lines: [(keys: String, text: String, isTitle: Bool)] = []
        for (index, section) in keys.helpSections.enumerated() {
            if index > 0 { lines.append(("", "", false)) }
            lines.append(("", section.title, true))
            for entry in section.entries { lines.append((entry.keys, entry.help, false)) }
        }
        return lines
    }

    /// `lineCount(keys:)` is the number of help rows, for scrolling.
    static func lineCount(keys: KeyMaps) -> Int { lines(keys: keys).count }

    func render(into grid: inout Grid) {
        guard box.width >= 8, box.height >= 4 else { return }
        grid.drawBox(box, title: "Help", frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        let visible = inner.height - 1
        let all = Self.lines(keys: keys)
        let first = min(max(0, scroll), max(0, all.count - visible))
        for (offset, line) in all.dropFirst(first).prefix(visible).enumerated() {
            let y = inner.y + offset
            if line.isTitle {
                grid.put(line.text, x: inner.x + 1, y: y, limit: inner.width - 1, style: .dialogFrame)
            } else {
                let keyColumn = min(Self.keyColumn, inner.width / 3)
                let textWidth = inner.width - 3 - keyColumn
                grid.put(DisplayText.truncate(line.keys, toWidth: keyColumn - 1), x: inner.x + 2, y: y, style: .dialog)
                grid.put(DisplayText.truncate(line.text, toWidth: textWidth), x: inner.x + 2 + keyColumn, y: y, style: .dialog)
            }
        }
        HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(inner.height - 1))
    }
}
