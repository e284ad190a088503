import FerryTUI

/// `ListTable` lays out `ferry list`'s table for a terminal: the columns before the URL as
/// wide as their widest cell (in terminal columns: CJK counts two), the name column leaving
/// ``urlRoom`` columns to the URL where that still gives the name two thirds of the room left
/// (a longer name cut with `…`), the columns a narrow terminal has no room
/// for left out (priority first, then speed, then size and ETA), and every line fitted to
/// the width. The rows are held until `lines()`: the widths depend on all of them.
struct ListTable {
    /// `headers` name the columns; the URL (and a failed task's last error) come last.
    static let headers = ["ID", "STATE", "%", "SIZE", "SPEED", "ETA", "PRI", "NAME", "URL"]
    /// `minimumWidths` and `rightAligned` describe the columns before the URL (numbers right-aligned).
    static let minimumWidths = [7, 9, 4, 8, 10, 6, 3, 4]
    static let rightAligned: Set<Int> = [2, 3, 4, 5, 6]
    /// `nameColumn` is the index of the name; `urlColumn` the first column left unpadded.
    static let nameColumn = 7
    static let urlColumn = 8
    /// `urlRoom` is the columns the name leaves to the URL, where the width allows.
    static let urlRoom = 24

    /// `width` is the terminal's width; `nil` when unknown (nothing left out or cut).
    let width: Int?
    private var rows: [[String]] = []

    init(width: Int?) {
        self.width = width
    }

    /// `append(_:)` adds a row of fields in `headers`' order (extra fields follow the URL).
    mutating func append(_ fields: [String]) {
        rows.append(fields)
    }

    /// `dropped` are the indexes of the columns left out on a terminal of `width` columns.
    var dropped: Set<Int> {
        guard let width else { return [] }
        if width >= 100 { return [] }
        if width >= 80 { return [6] }
        if width >= 64 { return [4, 6] }
        return [3, 4, 5, 6]
    }

    /// `lines()` is the header and the rows, aligned and fitted.
    func lines() -> [String] {
        let dropped = dropped
        var widths = Self.minimumWidths
        for fields in [Self.headers] + rows {
            for index in widths.indices where index < fields.count {
                widths[index] = max(widths[index], DisplayWidth.of(fields[index]))
            }
        }
        if let width {
            let before = widths.indices.filter { $0 < Self.nameColumn && !dropped.contains($0) }.reduce(0) { $0 + widths[$1] + 2 }
            // The name keeps two thirds of what is left at least: it is what people look for.
            let left = width - before
            let limit = max(Self.minimumWidths[Self.nameColumn], left - 2 - Self.urlRoom, left * 2 / 3)
            widths[Self.nameColumn] = min(widths[Self.nameColumn], limit)
        }
        return ([Self.headers] + rows).map { line($0, widths: widths, dropped: dropped) }
    }

    private func line(_ fields: [String], widths: [Int], dropped: Set<Int>) -> String {
        var parts: [String] = []
        for (index, field) in fields.enumerated() where !dropped.contains(index) {
            guard index < Self.urlColumn else {
                parts.append(field)
                continue
            }
            parts.append(DisplayText.fit(field, toWidth: widths[index], alignRight: Self.rightAligned.contains(index)))
        }
        var line = parts.joined(separator: "  ")
        // The last padded column of a row without a URL leaves no trailing spaces.
        while line.hasSuffix(" ") { line.removeLast() }
        return width.map { line.fitted(toWidth: $0) } ?? line
    }
}
