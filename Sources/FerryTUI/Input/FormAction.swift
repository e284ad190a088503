/// `FormAction` is what a key does in an add dialog, before line editing is considered.
public enum FormAction: Sendable, Hashable, CaseIterable {
    /// Focus the next field.
    case nextField
    /// Focus the previous field.
    case previousField
    /// Validate and, if every field passes, emit the command.
    case submit
    /// Close the dialog without emitting anything.
    case cancel
}
