extension Grid {
    /// `drawBox(_:title:frame:body:)` draws a single-line frame around `rect`, fills its
    /// inside with `body` and writes `title` into the top edge.
    mutating func drawBox(_ rect: Rect, title: String?, frame: Style, body: Style) {
        guard !rect.isEmpty else { return }
        fill(rect, style: body)
        let right = rect.maxX - 1, bottom = rect.maxY - 1
        if rect.width >= 2, rect.height >= 2 {
            fill(Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 1), with: "─", style: frame)
            fill(Rect(x: rect.x + 1, y: bottom, width: rect.width - 2, height: 1), with: "─", style: frame)
            fill(Rect(x: rect.x, y: rect.y + 1, width: 1, height: rect.height - 2), with: "│", style: frame)
            fill(Rect(x: right, y: rect.y + 1, width: 1, height: rect.height - 2), with: "│", style: frame)
            put("┌", x: rect.x, y: rect.y, style: frame)
            put("┐", x: right, y: rect.y, style: frame)
            put("└", x: rect.x, y: bottom, style: frame)
            put("┘", x: right, y: bottom, style: frame)
        }
        if let title, rect.width > 4 {
            let text = DisplayText.truncate(" " + DisplayText.sanitize(title) + " ", toWidth: rect.width - 4)
            put(text, x: rect.x + 2, y: rect.y, style: frame)
        }
    }
}
