import FerryKit
import FerryQueue

/// `HeaderView` draws the top row: the program name, the number of tasks in each state,
/// the engine's limits (when known and there is room) and the total download and upload
/// speeds.
struct HeaderView {
    /// `order` is the order of the per-state counts, most urgent first.
    static let order: [TaskState] = [.running, .queued, .paused, .failed, .cancelled, .done]

    let stats: TaskStats

    func render(into grid: inout Grid, area: Rect) {
        guard !area.isEmpty else { return }
        grid.fill(area.row(0), style: .header)
        var speeds = "⇣ \(ByteFormatting.speed(Double(stats.downloadSpeed)))  ⇡ \(ByteFormatting.speed(Double(stats.uploadSpeed))) "
        if let limits = stats.limits, area.width >= 100 {
            speeds = limits.label + "  " + speeds
        } else if stats.limits?.offline == true {
            speeds = "offline  " + speeds
        }
        let speedWidth = DisplayWidth.of(speeds)
        let x = area.x + grid.put(" Ferry ", x: area.x, y: area.y, limit: area.width, style: .title)
        let counts = Self.order.compactMap { state -> String? in
            let count = stats.count(state)
            return count > 0 ? "\(count) \(state.label)" : nil
        }
        let summary = counts.isEmpty ? "no tasks" : counts.joined(separator: " · ")
        let room = area.maxX - x - 2 - speedWidth
        if room >= 8 {
            grid.put(" " + DisplayText.truncate(summary, toWidth: room), x: x, y: area.y, style: .header)
            grid.put(speeds, x: area.maxX - speedWidth, y: area.y, style: .header)
        } else {
            grid.put(" " + summary, x: x, y: area.y, limit: area.maxX - x, style: .header)
        }
    }
}
