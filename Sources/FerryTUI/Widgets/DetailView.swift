import FerryKit

/// `DetailView` draws the selected task's details under the table: URLs, destination,
/// bytes, attempts, last error, validators and, for uploads, the server's reply. When a value
/// is cut short, the title row says that `v` shows it in full (`fullText(for:)`).
struct DetailView {
    static let labelWidth = 11

    let task: TaskRow?

    func render(into grid: inout Grid, area: Rect) {
        guard !area.isEmpty else { return }
        grid.fill(area, style: .normal)
        grid.fill(area.row(0), with: "─", style: .dim)
        grid.put(" Details ", x: area.x + 1, y: area.y, limit: area.width - 1, style: .label)
        guard let task else {
            grid.put("No task selected", x: area.x + 1, y: area.y + 1, limit: area.width - 1, style: .dim)
            return
        }
        let valueWidth = area.width - Self.labelWidth - 2
        let lines = Self.lines(for: task)
        let cut = lines.count > area.height - 1 || lines.contains { DisplayWidth.of(DisplayText.sanitize($0.value)) > valueWidth }
        if cut {
            let note = " v full text "
            let x = area.maxX - 1 - DisplayWidth.of(note)
            if x > area.x + 10 { grid.put(note, x: x, y: area.y, style: .label) }
        }
        for (offset, line) in lines.prefix(area.height - 1).enumerated() {
            let y = area.y + 1 + offset
            // A label as wide as the column ("Connections") keeps a space before its value.
            let indent = max(Self.labelWidth, DisplayWidth.of(line.label) + 1)
            let width = valueWidth - (indent - Self.labelWidth)
            grid.put(line.label, x: area.x + 1, y: y, limit: indent - 1, style: .label)
            let value = DisplayText.truncate(DisplayText.sanitize(line.value), toWidth: width)
            grid.put(value, x: area.x + 1 + indent, y: y, limit: max(0, width), style: line.style)
        }
    }

    /// `lines(for:)` are the pane's label, value and style rows for a task, most important first.
    static func lines(for task: TaskRow) -> [(label: String, value: String, style: Style)] {
        var lines: [(label: String, value: String, style: Style)] = []
        lines.append(("Name", task.name, .normal))
        var state = task.state.label
        if task.attempts > 0 { state += " · \(task.attempts) attempt" + (task.attempts == 1 ? "" : "s") }
        lines.append(("State", state, TaskTableView.style(for: task.state)))
        for (index, url) in task.urls.enumerated() {
            lines.append((index == 0 ? "URL" : "", url, .normal))
        }
        lines.append((task.kind == .download ? "Saving to" : "Files", task.destination, .normal))
        lines.append(("Bytes", bytesLine(task), .normal))
        if task.insecure { lines.append(("TLS", "NOT CHECKED: certificates and host names are not verified (-k)", .error)) }
        for (index, setting) in task.settings.enumerated() { lines.append((index == 0 ? "Settings" : "", setting, .normal)) }
        if task.kind == .download {
            lines.append(("Speed cap", task.speedLimit.map { ByteFormatting.speed(Double($0)) + " (l changes it)" } ?? "none (l sets one)", .normal))
        }
        if task.state == .running, task.connections > 1 { lines.append(("Connections", String(task.connections), .normal)) }
        if task.state == .running {
            for (index, source) in task.sources.enumerated() { lines.append((index == 0 ? "Sources" : "", source, .normal)) }
        }
        if task.kind == .download, task.state != .done, let map = fileMap(task) { lines.append(("File map", map, .normal)) }
        if let error = task.lastError { lines.append(("Last error", error, .error)) }
        if task.kind == .upload, let reply = task.reply { lines.append(("Reply", reply, .normal)) }
        if let etag = task.validators.etag { lines.append(("ETag", etag, .normal)) }
        if let modified = task.validators.lastModified { lines.append(("Modified", modified, .normal)) }
        if let checksum = task.validators.checksum { lines.append(("Checksum", checksum, .normal)) }
        return lines
    }

    /// `fullText(for:)` is everything the pane shows of a task, nothing cut: one labelled line
    /// per value, and the last error and the reply as they are, line breaks kept.
    static func fullText(for task: TaskRow) -> String {
        var text: [String] = []
        for line in lines(for: task) {
            if line.label == "Last error" || line.label == "Reply" {
                text += ["", line.label + ":", line.value, ""]
            } else {
                let label = line.label + String(repeating: " ", count: max(1, labelWidth - DisplayWidth.of(line.label)))
                text.append(label + line.value)
            }
        }
        return text.joined(separator: "\n")
    }

    /// `mapWidth` is the cells of the file map.
    static let mapWidth = 32

    /// `fileMap(_:)` is the file in `mapWidth` cells: `█` on disk, `▒` partly (in flight while
    /// the task runs), `·` missing; `nil` while the size is unknown or nothing is on disk.
    static func fileMap(_ task: TaskRow) -> String? {
        guard let total = task.bytesTotal, total > 0, !task.doneRanges.isEmpty else { return nil }
        var cells = ""
        for cell in 0..<Int64(mapWidth) {
            let start = total * cell / Int64(mapWidth)
            let end = max(start + 1, total * (cell + 1) / Int64(mapWidth))
            let covered = task.doneRanges.reduce(Int64(0)) { sum, range in
                sum + max(0, min(end, range.upperBound) - max(start, range.lowerBound))
            }
            cells += covered >= end - start ? "█" : covered > 0 ? "▒" : "·"
        }
        return cells
    }

    private static func bytesLine(_ task: TaskRow) -> String {
        let done = ByteFormatting.size(task.bytesDone)
        if task.kind == .upload, task.state == .failed, task.bytesTotal == nil { return "\(done) sent" }
        guard let total = task.bytesTotal else { return "\(done) of unknown size" }
        let percent = task.fraction.map { " (\(ByteFormatting.percent($0)))" } ?? ""
        return "\(done) of \(ByteFormatting.size(total))\(percent)"
    }
}
