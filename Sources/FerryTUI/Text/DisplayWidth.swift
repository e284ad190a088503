/// `DisplayWidth` measures text in terminal columns with fixed rules, independent of the locale.
///
/// Rules, applied to each Unicode scalar:
/// - control characters, general categories Mn, Me and Cf (combining marks, ZWJ, variation
///   selectors, format characters) and conjoining Hangul vowels and finals take 0 columns;
/// - East Asian Wide and Fullwidth characters and emoji with default emoji presentation
///   take 2 columns;
/// - everything else, East Asian Ambiguous included, takes 1 column.
///
/// A grapheme cluster (`Character`) takes the widest of its scalars, and 2 when it carries
/// the emoji variation selector U+FE0F. The same input gives the same answer on every machine
/// with the same Swift toolchain.
public enum DisplayWidth {
    /// `of(_:)` returns the width of one scalar: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return value == 0xAD ? 0 : 1 }
        if isConjoiningJamo(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// `of(_:)` returns the width of one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let first = scalars.first, scalars.count == 1 { return of(first) }
        var width = 0
        var emojiStyle = false
        for scalar in scalars {
            width = max(width, of(scalar))
            if scalar.value == 0xFE0F { emojiStyle = true }
        }
        return emojiStyle && width == 1 ? 2 : width
    }

    /// `of(_:)` returns the width of a string: the sum of its grapheme clusters' widths.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    private static func isConjoiningJamo(_ value: UInt32) -> Bool {
        (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
    }

    private static func isWide(_ value: UInt32) -> Bool {
        let table = wideRanges
        guard value >= table[0] else { return false }
        var low = 0
        var high = table.count / 2 - 1
        while low <= high {
            let mid = (low + high) / 2
            if value < table[2 * mid] {
                high = mid - 1
            } else if value > table[2 * mid + 1] {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
