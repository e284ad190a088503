/// `ProgressBar` draws a task's progress: heavy line for done, light line for to do, and a
/// moving segment for a running task of unknown size.
struct ProgressBar {
    let fraction: Double?
    let isRunning: Bool
    let tick: Int

    func render(into grid: inout Grid, x: Int, y: Int, width: Int, selected: Bool) {
        guard width > 0 else { return }
        let done: Style = selected ? .selection : .barDone
        let todo: Style = selected ? .selection : .barTodo
        grid.fill(Rect(x: x, y: y, width: width, height: 1), with: "─", style: todo)
        if let fraction {
            let halves = Int((fraction * Double(width * 2)).rounded(.down))
            let full = min(width, halves / 2)
            if full > 0 { grid.fill(Rect(x: x, y: y, width: full, height: 1), with: "━", style: done) }
            if halves % 2 == 1, full < width { grid.put("╸", x: x + full, y: y, style: done) }
        } else if isRunning {
            let segment = min(3, width)
            let span = width - segment
            let period = max(1, 2 * span)
            let phase = ((tick % period) + period) % period
            let offset = phase <= span ? phase : period - phase
            grid.fill(Rect(x: x + offset, y: y, width: segment, height: 1), with: "━", style: done)
        }
    }
}
