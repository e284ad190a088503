/// `Point` is a cell position: `x` counts columns from the left, `y` rows from the top.
public struct Point: Sendable, Hashable {
    /// `x` is the column, 0 at the left edge.
    public var x: Int
    /// `y` is the row, 0 at the top edge.
    public var y: Int

    /// `init(x:y:)` makes a position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
