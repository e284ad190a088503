/// `Grid` is a screen's worth of cells: the output of `Renderer.render(_:)` and the only
/// input of the terminal backend.
///
/// Writing keeps the grid consistent: text is sanitised on the way in, a wide character is
/// never split (it becomes a space when only one column is left), and overwriting half of
/// a wide character blanks the other half.
public struct Grid: Sendable, Hashable {
    /// `size` is the grid's width and height.
    public let size: Size
    /// `cells` holds the rows one after another, `size.width` cells each.
    public private(set) var cells: [Cell]
    /// `cursor` is where the terminal cursor should be shown, `nil` to hide it. `nil` by default.
    public var cursor: Point?

    /// `init(size:style:)` makes a grid of blank cells in `style` (`.normal` by default).
    public init(size: Size, style: Style = .normal) {
        self.size = size
        self.cells = Array(repeating: .blank(style), count: size.width * size.height)
        self.cursor = nil
    }

    /// `width` is the number of columns.
    public var width: Int { size.width }

    /// `height` is the number of rows.
    public var height: Int { size.height }

    /// `bounds` is the rectangle covering the whole grid.
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// `subscript(x:y:)` is the cell at a position; a blank cell outside the grid.
    public subscript(x: Int, y: Int) -> Cell {
        guard contains(x: x, y: y) else { return .blank(.normal) }
        return cells[y * size.width + x]
    }

    /// `fill(_:style:)` blanks every cell of `rect` (clipped to the grid) in `style`.
    public mutating func fill(_ rect: Rect, style: Style) {
        fill(rect, with: " ", style: style)
    }

    /// `fill(_:with:style:)` sets every cell of `rect` (clipped) to a one-column character.
    public mutating func fill(_ rect: Rect, with character: Character, style: Style) {
        let x0 = max(0, rect.x), x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let safe = safeCharacter(character)
        let cell = DisplayWidth.of(safe) == 1 ? Cell(character: safe, width: 1, style: style) : Cell.blank(style)
        for y in y0..<y1 {
            unlinkWide(x: x0, y: y)
            unlinkWide(x: x1 - 1, y: y)
            for x in x0..<x1 { cells[y * size.width + x] = cell }
        }
    }

    /// `put(_:x:y:limit:style:)` writes `text` from a position, clipped to the grid and to
    /// `limit` columns (unlimited by default), and returns the number of columns advanced.
    ///
    /// Zero-width clusters are dropped; unsafe characters become U+FFFD.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, limit: Int = .max, style: Style) -> Int {
        guard y >= 0, y < size.height, limit > 0 else { return 0 }
        let end = x > size.width - limit ? size.width : min(size.width, x + limit)
        var column = x
        for original in text {
            if column >= end { break }
            let character = safeCharacter(original)
            let columns = DisplayWidth.of(character)
            if columns == 0 { continue }
            if column < 0 {
                if columns == 2, column == -1 { set(x: 0, y: y, cell: .blank(style)) }
                column += columns
                continue
            }
            if columns == 2, column + 1 >= end {
                set(x: column, y: y, cell: .blank(style))
                column += 1
                break
            }
            set(x: column, y: y, cell: Cell(character: character, width: UInt8(columns), style: style))
            if columns == 2 {
                set(x: column + 1, y: y, cell: Cell(character: " ", width: 0, style: style))
            }
            column += columns
        }
        return max(0, column - x)
    }

    /// `restyle(_:style:)` changes the style of every cell in `rect` without touching the text.
    public mutating func restyle(_ rect: Rect, style: Style) {
        let x0 = max(0, rect.x), x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 { cells[y * size.width + x].style = style }
        }
    }

    /// `lines()` returns the grid's text row by row, each exactly `width` columns wide.
    public func lines() -> [String] {
        (0..<size.height).map { y in
            var line = ""
            for x in 0..<size.width {
                let cell = cells[y * size.width + x]
                if !cell.isContinuation { line.append(cell.character) }
            }
            return line
        }
    }

    private func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size.width && y < size.height
    }

    private func safeCharacter(_ character: Character) -> Character {
        character.unicodeScalars.contains(where: DisplayText.isUnsafe) ? Character(DisplayText.placeholder) : character
    }

    /// `set(x:y:cell:)` sets one cell after breaking up any wide character it overlaps.
    private mutating func set(x: Int, y: Int, cell: Cell) {
        guard contains(x: x, y: y) else { return }
        let index = y * size.width + x
        if !cell.isContinuation {
            unlinkWide(x: x, y: y)
        } else if cells[index].width == 2, x + 1 < size.width {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Blanks the other half of a wide character that covers `(x, y)`.
    private mutating func unlinkWide(x: Int, y: Int) {
        guard contains(x: x, y: y) else { return }
        let index = y * size.width + x
        let cell = cells[index]
        if cell.isContinuation, x > 0 {
            let lead = index - 1
            cells[lead] = .blank(cells[lead].style)
            cells[index] = .blank(cell.style)
        } else if cell.width == 2, x + 1 < size.width {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
    }
}
