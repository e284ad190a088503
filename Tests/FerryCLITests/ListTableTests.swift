import FerryTUI
import Testing
@testable import ferry

/// `ListTable` without a terminal: the columns line up, in terminal columns, whatever the
/// widths of the names (CJK counts two) and of the figures (long sizes, big ids).
@Suite struct ListTableTests {
    private func row(_ id: String, _ size: String, _ name: String, _ url: String = "http://h/x") -> [String] {
        [id, "queued", "-", size, "-", "-", "0", name, url]
    }

    /// The terminal column where `text` starts in `line`.
    private func column(of text: String, in line: String) -> Int? {
        guard let range = line.range(of: text) else { return nil }
        return DisplayWidth.of(String(line[..<range.lowerBound]))
    }

    @Test func columnsLineUpWithWideNamesAndLongSizes() throws {
        // Given rows with a CJK name, a long name, a long size and a five-digit id
        var table = ListTable(width: 140)
        table.append(row("#1", "1.0 KiB", "日本語の名前.bin", "http://h/one"))
        table.append(row("#12345", "1023.9 MiB", "a-rather-long-file-name-for-a-table.iso", "http://h/two"))
        table.append(row("#7", "-", "b", "http://h/three"))

        // When it is laid out
        let lines = table.lines()

        // Then every column starts at the same terminal column on every line
        #expect(lines.count == 4)
        for (header, cells) in [("STATE", ["queued", "queued", "queued"]), ("URL", ["http://h/one", "http://h/two", "http://h/three"])] {
            let start = try #require(column(of: header, in: lines[0]))
            for (line, cell) in zip(lines.dropFirst(), cells) {
                #expect(column(of: cell, in: line) == start, "\(header): \(lines)")
            }
        }
        // Sizes are right-aligned: they end where SIZE ends.
        let sizeEnd = try #require(column(of: "SIZE", in: lines[0])) + 4
        #expect(column(of: "1023.9 MiB", in: lines[2]).map { $0 + 10 } == sizeEnd, "\(lines)")
        #expect(column(of: "1.0 KiB", in: lines[1]).map { $0 + 7 } == sizeEnd, "\(lines)")
    }

    @Test func aLongNameIsCutToLeaveTheURLRoomAndLinesFitTheWidth() throws {
        // Given a narrow terminal and a name longer than it
        var table = ListTable(width: 60)
        table.append(row("#1", "1 B", String(repeating: "名", count: 40), "h/one"))
        table.append(row("#2", "1 B", "short", "h/two"))

        let lines = table.lines()

        // Then no line is wider than the terminal, the long name is cut, and the URLs line up
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 }, "\(lines)")
        #expect(lines[1].contains("…"))
        #expect(column(of: "h/one", in: lines[1]) == column(of: "h/two", in: lines[2]), "\(lines)")
        #expect(column(of: "URL", in: lines[0]) == column(of: "h/two", in: lines[2]), "\(lines)")
    }
}
