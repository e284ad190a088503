/// `Cell` is one column of one row of a `Grid`.
///
/// A wide character occupies two cells: the first holds the character with `width` 2, the
/// second is a continuation with `width` 0 whose character is ignored.
public struct Cell: Sendable, Hashable {
    /// `character` is the grapheme cluster shown in the cell; a space when blank.
    public var character: Character
    /// `width` is 1 for a normal cell, 2 for the first half of a wide character and 0 for its second half.
    public var width: UInt8
    /// `style` is the cell's semantic role.
    public var style: Style

    /// `init(character:width:style:)` makes a cell; a blank normal cell by default.
    public init(character: Character = " ", width: UInt8 = 1, style: Style = .normal) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// `blank(_:)` is a space in the given style.
    public static func blank(_ style: Style) -> Cell { Cell(character: " ", width: 1, style: style) }

    /// `isContinuation` is true for the second half of a wide character.
    public var isContinuation: Bool { width == 0 }
}
