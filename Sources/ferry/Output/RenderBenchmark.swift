import FerryTUI

/// `RenderBenchmark` measures the pure renderer: `ferry tui --render-benchmark N` draws N
/// frames of a 10,000-task queue (an 80x24 screen, a running task's progress changing every
/// frame) into a grid and prints the mean and worst time per frame. Used by `bench/tui`.
enum RenderBenchmark {
    /// `taskCount` is the size of the queue drawn.
    static let taskCount = 10_000

    /// `run(frames:)` measures and prints one line: `frames=N tasks=10000 mean_ms=X max_ms=Y`.
    static func run(frames: Int) {
        let rows = (0..<taskCount).map { index in
            TaskRow(
                id: Int64(index), kind: index % 7 == 0 ? .upload : .download, name: "file-\(index) 日本語.bin",
                state: index < 4 ? .running : .queued, position: index, bytesDone: Int64(index) * 1000,
                bytesTotal: 100_000_000, speed: index < 4 ? 5_000_000 : 0, eta: index < 4 ? 20 : nil,
                urls: ["https://example.com/files/\(index)"], destination: "/downloads/file-\(index).bin"
            )
        }
        let table = TaskRowTable(rows)
        var state = TUIState(size: Size(width: 80, height: 24))
        table.load(into: &state)
        _ = table.answer(state.apply([.key(.pageDown)]), in: &state)
        let clock = ContinuousClock()
        var total = Duration.zero
        var worst = Duration.zero
        var checksum = 0
        for frame in 0..<max(1, frames) {
            var running = rows[frame % 4]
            running.bytesDone += Int64(frame) * 4096
            _ = state.apply([.updateTasks([running]), .tick])
            let start = clock.now
            let grid = Renderer.render(state)
            let elapsed = clock.now - start
            checksum &+= grid.width
            total += elapsed
            worst = max(worst, elapsed)
        }
        let count = Double(max(1, frames))
        Console.output("frames=\(max(1, frames)) tasks=\(taskCount) mean_ms=\(milliseconds(total) / count) max_ms=\(milliseconds(worst)) width=\(checksum / max(1, frames))")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
