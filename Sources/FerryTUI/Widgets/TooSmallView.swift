/// `TooSmallView` replaces the layout on a screen below `Layout.minimumSize` with a short
/// note, wrapped to whatever room there is.
struct TooSmallView {
    func render(into grid: inout Grid) {
        let size = grid.size
        guard size.width > 0, size.height > 0 else { return }
        let minimum = Layout.minimumSize
        let words = "Terminal too small: \(size.width)x\(size.height), need \(minimum.width)x\(minimum.height)"
            .split(separator: " ").map(String.init)
        var lines: [String] = []
        var current = ""
        for word in words {
            let candidate = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(candidate) <= size.width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        let shown = lines.prefix(size.height)
        let top = (size.height - shown.count) / 2
        for (offset, line) in shown.enumerated() {
            let text = DisplayText.truncate(line, toWidth: size.width)
            let x = (size.width - DisplayWidth.of(text)) / 2
            grid.put(text, x: x, y: top + offset, style: .normal)
        }
    }
}
