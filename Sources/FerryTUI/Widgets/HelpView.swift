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

    /// `columns(boxWidth:)` are the widths of the key column and of the text beside it in a
    /// help frame `boxWidth` columns wide.
    static func columns(boxWidth: Int) -> (keys: Int, text: Int) {
        let inner = max(0, boxWidth - 2)
        let keys = min(keyColumn, inner / 3)
        return (keys, max(1, inner - 3 - keys))
    }

    /// `lines(keys:boxWidth:)` are the rows shown in a help frame `boxWidth` columns wide:
    /// `lines(keys:)` with each entry's text wrapped to the room beside the key column (its
    /// further rows without keys), so nothing is cut.
    /// Keys wider than their column get a row of their own, the text starting below them.
    static func lines(keys: KeyMaps, boxWidth: Int) -> [(keys: String, text: String, isTitle: Bool)] {
        let columns = columns(boxWidth: boxWidth)
        var rows: [(keys: String, text: String, isTitle: Bool)] = []
        for line in lines(keys: keys) {
            guard !line.isTitle, !line.text.isEmpty else {
                rows.append(line)
                continue
            }
            var first = line.keys
            if DisplayWidth.of(first) > columns.keys - 1 {
                rows.append((first, "", false))
                first = ""
            }
            for (index, part) in TextWrap.lines(line.text, width: columns.text).enumerated() {
                rows.append((index == 0 ? first : "", part, false))
            }
        }
        return rows
    }

    /// `lineCount(keys:boxWidth:)` is the number of help rows in a frame `boxWidth` columns
    /// wide, for scrolling.
    static func lineCount(keys: KeyMaps, boxWidth: Int) -> Int { lines(keys: keys, boxWidth: boxWidth).count }

    func render(into grid: inout Grid) {
        guard box.width >= 8, box.height >= 4 else { return }
        grid.drawBox(box, title: "Help", frame: .dialogFrame, body: .dialog)
        let inner = box.inset(by: 1)
        let visible = inner.height - 1
        let all = Self.lines(keys: keys, boxWidth: box.width)
        let first = min(max(0, scroll), max(0, all.count - visible))
        let columns = Self.columns(boxWidth: box.width)
        for (offset, line) in all.dropFirst(first).prefix(visible).enumerated() {
            let y = inner.y + offset
            if line.isTitle {
                grid.put(line.text, x: inner.x + 1, y: y, limit: inner.width - 1, style: .dialogFrame)
            } else {
                // Keys on a row of their own may take the whole row.
                let keysWidth = line.text.isEmpty ? inner.width - 3 : columns.keys - 1
                grid.put(DisplayText.truncate(line.keys, toWidth: keysWidth), x: inner.x + 2, y: y, style: .dialog)
                grid.put(DisplayText.truncate(line.text, toWidth: columns.text), x: inner.x + 2 + columns.keys, y: y, style: .dialog)
            }
        }
        HintBar(hints, textStyle: .dialog).render(into: &grid, area: inner.row(inner.height - 1))
    }
}
