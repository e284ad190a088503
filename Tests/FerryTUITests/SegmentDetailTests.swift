import FerryKit
import Foundation
import Testing
@testable import FerryTUI

/// A split download in the front end: its live connections in the table and in the details,
/// and a map of the file (on disk, partly, missing).
@Suite struct SegmentDetailTests {
    private func row() -> TaskRow {
        var row = TaskRow(id: 5, kind: .download, name: "big.iso", state: .running, bytesDone: 48, bytesTotal: 64,
                          speed: 1_048_576, eta: 1, urls: ["http://example.com/big.iso"], destination: "/dl/big.iso")
        row.connections = 4
        // 0..<24 and 32..<56 on disk; 24..<32 and 56..<64 missing (a 32-cell map: 2 bytes a cell).
        row.doneRanges = [0..<24, 32..<55]
        return row
    }

    @Test func theDetailsShowConnectionsAndAMapOfTheFile() {
        let lines = DetailView.lines(for: row())
        #expect(lines.first { $0.label == "Connections" }?.value == "4")
        #expect(lines.first { $0.label == "File map" }?.value
                == String(repeating: "█", count: 12) + "····" + String(repeating: "█", count: 11) + "▒" + "····")
    }

    @Test func aDownloadFromSeveralSourcesListsEachWithItsStateAndSpeed() throws {
        var task = row()
        var progress = TransferProgress(receivedBytes: 48, expectedReceivedBytes: 64, bytesPerSecond: 3_000_000)
        progress.connections = 3
        progress.sources = [
            SourceReport(url: try #require(URL(string: "http://a.example/big.iso")), state: "active", connections: 2, bytes: 40,
                         speed: 2_097_152, badPieces: 0, reason: nil),
            SourceReport(url: try #require(URL(string: "http://u:pw@b.example/big.iso")), state: "demoted", connections: 1, bytes: 8,
                         speed: 0, badPieces: 1, reason: nil),
            SourceReport(url: try #require(URL(string: "http://c.example/big.iso")), state: "dropped", connections: 0, bytes: 0,
                         speed: 0, badPieces: 0, reason: "answered 404"),
        ]
        task.apply(progress)
        let lines = DetailView.lines(for: task)
        let start = try #require(lines.firstIndex { $0.label == "Sources" })
        #expect(lines[start].value.hasPrefix("active · 2 connections · ") && lines[start].value.hasSuffix("· http://a.example/big.iso"))
        #expect(lines[start + 1].label == "" && lines[start + 1].value == "demoted · 1 connection · 1 bad piece · http://u:***@b.example/big.iso")
        #expect(lines[start + 2].value == "dropped · answered 404 · http://c.example/big.iso")
    }

    @Test func theLongestLabelKeepsASpaceBeforeItsValue() {
        var grid = Grid(size: Size(width: 60, height: 14))
        DetailView(task: row()).render(into: &grid, area: grid.bounds)
        #expect(grid.lines().contains { $0.hasPrefix(" Connections 4 ") }, "\(grid.lines())")
        #expect(grid.lines().contains { $0.hasPrefix(" Bytes      48 B of 64 B") }, "\(grid.lines())")
    }

    @Test func aSingleStreamOrAnUnknownSizeHasNoMapOrCount() {
        var single = row()
        single.connections = 1
        single.bytesTotal = nil
        let lines = DetailView.lines(for: single)
        #expect(!lines.contains { $0.label == "Connections" || $0.label == "File map" })
    }

    @Test func theTableShowsTheConnectionsBeforeTheSpeed() {
        var grid = Grid(size: Size(width: 80, height: 3))
        TaskTableView(source: OneRow(row: row()), selectedIndex: 0, scrollTop: 0, tick: 0, caption: "", emptyNote: "")
            .render(into: &grid, header: grid.bounds.row(0), body: Rect(x: 0, y: 1, width: 80, height: 2))
        #expect(grid.lines()[1].contains(" 4×1.0M/s "), "\(grid.lines())")
    }

    @Test func theDetailsShowTheTasksOwnSpeedCap() {
        var capped = row()
        capped.speedLimit = 300 * 1024
        #expect(DetailView.lines(for: capped).first { $0.label == "Speed cap" }?.value == "300 KiB/s (l changes it)")
        #expect(DetailView.lines(for: row()).first { $0.label == "Speed cap" }?.value == "none (l sets one)")
    }
}

private struct OneRow: TaskRowSource {
    let row: TaskRow
    var rowCount: Int { 1 }
    func row(at index: Int) -> TaskRow? { index == 0 ? row : nil }

}
