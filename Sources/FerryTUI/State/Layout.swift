/// `Layout` splits the screen into the front end's areas. The state uses it to know how
/// many rows the table shows (for scrolling) and the renderer to know where to draw.
///
/// From the top: header (1 row), column titles (1), table (the rest), detail pane (when
/// shown and there is room), key hints (1), message line (1).
public struct Layout: Sendable, Hashable {
    /// `minimumSize` is the smallest screen that gets the full layout: 40x8.
    public static let minimumSize = Size(width: 40, height: 8)
    /// `detailHeight` is the detail pane's preferred height, its title row included.
    public static let detailHeight = 9
    /// `minimumTableRows` is the number of table rows the detail pane never squeezes below.
    public static let minimumTableRows = 3

    /// `size` is the whole screen.
    public let size: Size
    /// `isTooSmall` is true below `minimumSize`; only a short message is drawn then.
    public let isTooSmall: Bool
    /// `header` is the top row.
    public let header: Rect
    /// `columnHeader` is the table's title row.
    public let columnHeader: Rect
    /// `table` holds the task rows.
    public let table: Rect
    /// `detail` is the detail pane, `nil` when hidden or when there is no room.
    public let detail: Rect?
    /// `hints` is the key-hint row.
    public let hints: Rect
    /// `message` is the bottom row (messages and the filter prompt).
    public let message: Rect

    /// `init(size:showDetail:)` lays out a screen.
    public init(size: Size, showDetail: Bool) {
        self.size = size
        isTooSmall = size.width < Self.minimumSize.width || size.height < Self.minimumSize.height
        let width = size.width
        header = Rect(x: 0, y: 0, width: width, height: 1)
        columnHeader = Rect(x: 0, y: 1, width: width, height: 1)
        hints = Rect(x: 0, y: size.height - 2, width: width, height: 1)
        message = Rect(x: 0, y: size.height - 1, width: width, height: 1)
        let available = max(0, size.height - 4)
        let detailRows = min(Self.detailHeight, available - Self.minimumTableRows)
        if showDetail, detailRows >= 3, !isTooSmall {
            table = Rect(x: 0, y: 2, width: width, height: available - detailRows)
            detail = Rect(x: 0, y: 2 + available - detailRows, width: width, height: detailRows)
        } else {
            table = Rect(x: 0, y: 2, width: width, height: available)
            detail = nil
        }
    }

    /// `tableRows` is the number of task rows visible at once.
    public var tableRows: Int { isTooSmall ? 0 : table.height }

    /// `helpBox` is the frame of the help screen.
    public var helpBox: Rect {
        Rect(x: 0, y: 0, width: size.width, height: size.height).centered(width: min(size.width, 80), height: size.height)
    }

    /// `helpLines` is the number of help lines visible at once (inside the frame, above its hint row).
    public var helpLines: Int { max(0, helpBox.height - 3) }

    /// `textBox` is the frame of the full-text view: the whole screen.
    public var textBox: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// `textWidth` is the width of the full-text view's lines (inside the frame, a margin each side).
    public var textWidth: Int { max(1, textBox.width - 4) }

    /// `textLines` is the number of full-text lines visible at once (inside the frame, above its hint row).
    public var textLines: Int { max(0, textBox.height - 3) }
}
