import Testing
@testable import FerryTUI

/// `CountingSource` A row source that counts how many rows the table asks for.
private final class CountingSource: TaskRowSource {
    let rowCount: Int
    private(set) var reads = 0

    init(rowCount: Int) { self.rowCount = rowCount }

    func row(at index: Int) -> TaskRow? {
        reads += 1
        return Fixtures.row(Int64(index), "task-\(index)")
    }
}

@Suite struct LargeTableTests {
    static let rows = (0..<10_000).map { Fixtures.row(Int64($0), "file-\($0).bin", total: 100) }

    @Test func tableReadsOnlyTheRowsOnScreen() {
        // Given 10,000 rows and a table 20 rows high scrolled to the middle
        let source = CountingSource(rowCount: 10_000)
        var grid = Grid(size: Size(width: 80, height: 21))
        // When it is drawn
        TaskTableView(source: source, selectedIndex: 5_000, scrollTop: 4_990, tick: 0, caption: "", emptyNote: "")
            .render(into: &grid, header: grid.bounds.row(0), body: Rect(x: 0, y: 1, width: 80, height: 20))
        // Then exactly the 20 visible rows were read
        #expect(source.reads == 20)
        #expect(grid.lines()[1].hasPrefix("◌ task-4990 "))
    }

    @Test func jumpingToTheEndOfTenThousandRowsShowsTheLastRows() {
        var state = Fixtures.state(width: 60, height: 14, rows: Self.rows)
        Fixtures.press([.character("G")], in: &state)
        let lines = Fixtures.render(state)
        let tableRows = state.layout.tableRows
        #expect(state.selectedID == 9_999)
        #expect(lines[2 + tableRows - 1].hasPrefix("◌ file-9999.bin"))
        #expect(lines[2].hasPrefix("◌ file-\(10_000 - tableRows).bin"))
    }

    @Test func headerStatsForTenThousandRowsComeFromTheIncrementalCounts() {
        var state = Fixtures.state(rows: Self.rows)
        state.upsert((0..<100).map { Fixtures.row(Int64($0), "file-\($0).bin", .running, total: 100, speed: 10) })
        #expect(state.stats.count(.running) == 100)
        #expect(state.stats.count(.queued) == 9_900)
        #expect(state.stats.downloadSpeed == 1_000)
        #expect(state.stats == state.table.stats)
    }

    @Test func filteringTenThousandRowsKeepsOnlyMatches() {
        var state = Fixtures.state(rows: Self.rows)
        Fixtures.press([.character("/")] + Fixtures.type("-999"), in: &state)
        #expect(state.visible == [999, 9_990, 9_991, 9_992, 9_993, 9_994, 9_995, 9_996, 9_997, 9_998, 9_999])
    }

    @Test func progressUpdatesInQueueOrderKeepTheCachedOrder() {
        // Given a cached order
        var state = Fixtures.state(rows: Self.rows)
        let before = state.visible
        // When a batch of progress updates arrives
        _ = state.update(.updateTasks([Fixtures.row(5, "file-5.bin", .running, done: 50, total: 100, speed: 99)]))
        // Then the order is unchanged and the row shows the new data
        #expect(state.visible == before)
        #expect(state.row(at: 5)?.bytesDone == 50)
    }
}
