import FerryKit
import FerryQueue

/// `TaskTableView` draws the column titles and the visible task rows: state glyph, name,
/// size, progress bar, percentage, speed and ETA, with the selected row highlighted.
///
/// It reads only the rows between `scrollTop` and the bottom of its area, so drawing costs
/// the same for ten tasks and for ten thousand.
struct TaskTableView {
    let source: any TaskRowSource
    let selectedIndex: Int
    let scrollTop: Int
    let tick: Int
    /// `caption` follows "Name" in the title row (sort order, filter); empty for none.
    let caption: String
    /// `emptyNote` is shown when there is no row.
    let emptyNote: String

    func render(into grid: inout Grid, header: Rect, body: Rect) {
        let columns = TableColumns(width: header.width)
        renderTitles(into: &grid, area: header, columns: columns)
        guard !body.isEmpty else { return }
        let count = source.rowCount
        if count == 0 {
            let note = DisplayText.truncate(emptyNote, toWidth: body.width - 2)
            grid.put(note, x: body.x + 2, y: body.y + min(1, body.height - 1), style: .dim)
            return
        }
        let first = min(max(0, scrollTop), max(0, count - 1))
        for line in 0..<body.height {
            let index = first + line
            guard index < count, let row = source.row(at: index) else { break }
            renderRow(row, into: &grid, area: body.row(line), columns: columns, selected: index == selectedIndex)
        }
    }

    private func renderTitles(into grid: inout Grid, area: Rect, columns: TableColumns) {
        guard !area.isEmpty else { return }
        grid.fill(area.row(0), style: .columnHeader)
        var x = area.x + TableColumns.glyph
        let name = caption.isEmpty ? "Name" : "Name " + caption
        grid.put(DisplayText.fit(name, toWidth: columns.name), x: x, y: area.y, style: .columnHeader)
        x += columns.name
        for (title, width, right) in [("Size", columns.size, true), ("Progress", columns.bar, false),
                                      ("Done", columns.percent, true), ("Speed", columns.speed, true),
                                      ("ETA", columns.eta, true)] where width > 0 {
            grid.put(DisplayText.fit(title, toWidth: width, alignRight: right), x: x + 1, y: area.y, style: .columnHeader)
            x += width + 1
        }
    }

    private func renderRow(_ row: TaskRow, into grid: inout Grid, area: Rect, columns: TableColumns, selected: Bool) {
        let base: Style = selected ? .selection : .normal
        grid.fill(area, style: base)
        grid.put(Self.glyph(for: row), x: area.x, y: area.y, style: selected ? .selection : Self.style(for: row.state))
        var x = area.x + TableColumns.glyph
        // A task whose TLS peers are not checked (-k) says so before its name.
        grid.put(DisplayText.fit((row.insecure ? "[-k] " : "") + DisplayText.sanitize(row.name), toWidth: columns.name), x: x, y: area.y, style: base)
        x += columns.name + 1
        let running = row.state == .running
        if columns.size > 0 {
            let size = row.bytesTotal.map(ByteFormatting.size) ?? (row.bytesDone > 0 ? ByteFormatting.size(row.bytesDone) : "?")
            grid.put(DisplayText.fit(size, toWidth: columns.size, alignRight: true), x: x, y: area.y, style: base)
            x += columns.size + 1
        }
        if columns.bar > 0 {
            ProgressBar(fraction: row.fraction, isRunning: running, tick: tick)
                .render(into: &grid, x: x, y: area.y, width: columns.bar, selected: selected)
            x += columns.bar + 1
        }
        if columns.percent > 0 {
            let percent = row.fraction.map(ByteFormatting.percent) ?? ""
            grid.put(DisplayText.fit(percent, toWidth: columns.percent, alignRight: true), x: x, y: area.y, style: base)
            x += columns.percent + 1
        }
        if columns.speed > 0 {
            var speed = running ? ByteFormatting.speed(Double(row.speed)) : ""
            // A split download shows its live connections: "4×1.2 MiB/s", or "4×1.2M/s" to fit.
            if running, row.connections > 1 {
                let full = "\(row.connections)×" + speed
                let unit = speed.hasSuffix("iB/s") ? String(speed.dropLast(4)) + "/s" : speed
                let compact = "\(row.connections)×" + unit.filter { $0 != " " }
                if DisplayWidth.of(full) <= columns.speed {
                    speed = full
                } else if DisplayWidth.of(compact) <= columns.speed {
                    speed = compact
                }
            }
            grid.put(DisplayText.fit(speed, toWidth: columns.speed, alignRight: true), x: x, y: area.y, style: base)
            x += columns.speed + 1
        }
        if columns.eta > 0 {
            let eta = running ? ByteFormatting.duration(row.eta.map(Double.init)) : ""
            grid.put(DisplayText.fit(eta, toWidth: columns.eta, alignRight: true), x: x, y: area.y, style: base)
        }
    }

    /// `glyph(for:)` is the one-column state mark: ◌ queued, ⇣/⇡ running, ‖ paused,
    /// ✓ done, ✗ failed, ⊘ cancelled.
    static func glyph(for row: TaskRow) -> String {
        switch row.state {
        case .queued: "◌"
        case .running: row.kind == .download ? "⇣" : "⇡"
        case .paused: "‖"
        case .done: "✓"
        case .failed: "✗"
        case .cancelled: "⊘"
        }
    }

    /// `style(for:)` is the glyph's style for a state.
    static func style(for state: TaskState) -> Style {
        switch state {
        case .queued: .queued
        case .running: .running
        case .paused: .paused
        case .done: .done
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }
}
