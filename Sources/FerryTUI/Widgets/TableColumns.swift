/// `TableColumns` are the widths of the task table's columns for a screen width; a width
/// of 0 hides the column. The name keeps at least `minimumName` columns: narrower screens
/// drop the percentage last, after the ETA, speed, size and progress bar.
struct TableColumns: Equatable {
    static let minimumName = 12
    static let glyph = 2

    var name = 0
    var size = 0
    var bar = 0
    var percent = 0
    var speed = 0
    var eta = 0

    init(width: Int) {
        var remaining = width - Self.glyph
        func take(_ columns: Int) -> Int {
            guard remaining - (columns + 1) >= Self.minimumName else { return 0 }
            remaining -= columns + 1
            return columns
        }
        percent = take(4)
        size = take(8)
        speed = take(10)
        eta = take(6)
        let spare = remaining - Self.minimumName
        if spare >= 11 {
            bar = min(30, max(10, min(spare - 1, remaining / 3)))
            remaining -= bar + 1
        }
        name = max(0, remaining)
    }
}
