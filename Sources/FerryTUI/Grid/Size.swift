/// `Size` is a width and height in cells; negative values are stored as 0.
public struct Size: Sendable, Hashable {
    /// `width` is the number of columns.
    public var width: Int
    /// `height` is the number of rows.
    public var height: Int

    /// `init(width:height:)` makes a size, clamping negative values to 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
}
