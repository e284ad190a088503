/// `Rect` is a rectangle of cells; an empty rectangle has zero width or height.
public struct Rect: Sendable, Hashable {
    /// `x` is the left column.
    public var x: Int
    /// `y` is the top row.
    public var y: Int
    /// `width` is the number of columns, never negative.
    public var width: Int
    /// `height` is the number of rows, never negative.
    public var height: Int

    /// `init(x:y:width:height:)` makes a rectangle, clamping a negative width or height to 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// `isEmpty` is true when the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// `maxX` is the column just right of the rectangle.
    public var maxX: Int { x + width }

    /// `maxY` is the row just below the rectangle.
    public var maxY: Int { y + height }

    /// `inset(by:)` shrinks the rectangle by `amount` cells on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// `row(_:)` is the one-row rectangle at offset `index` from the top (empty if outside).
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y + index, width: 0, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }

    /// `centered(width:height:)` is a rectangle of at most the given size centred in this one.
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(max(0, w), width)
        let ch = min(max(0, h), height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
