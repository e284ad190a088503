/// `FieldProblem` is a validation failure shown inside a dialog, under its fields.
public struct FieldProblem: Error, Sendable, Hashable {
    /// `message` tells the user what to fix.
    public var message: String
    /// `field` is the index of the offending field; `nil` when the caller fills it in.
    public var field: Int?

    /// `init(_:field:)` makes a problem; the field is `nil` by default.
    public init(_ message: String, field: Int? = nil) {
        self.message = message
        self.field = field
    }
}
