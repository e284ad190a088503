/// `JSONWritingOptions` says how a ``ParameterValue`` is written as JSON. Empty by default.
///
/// Dictionary keys are always sorted (ascending, by UTF-16 code units), so the output is
/// the same on every run; Foundation's `sortedKeys` is therefore always in effect.
public struct JSONWritingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Indents with two spaces, one value per line, `"key" : value` (Foundation's layout).
    public static let prettyPrinted = JSONWritingOptions(rawValue: 1 << 0)
    /// Writes `/` as is instead of `\/`.
    public static let withoutEscapingSlashes = JSONWritingOptions(rawValue: 1 << 1)
    /// Allows a top-level value that is neither an array nor a dictionary.
    public static let fragmentsAllowed = JSONWritingOptions(rawValue: 1 << 2)
}
