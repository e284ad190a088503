/// `FormAction` is what a key does in an add dialog, before line editing is considered.
public enum FormAction: Sendable, Hashable, CaseIterable {
    /// `nextField`: focus the next field.
    case nextField
    /// `previousField`: focus the previous field.
    case previousField
    /// `submit`: validate and, if every field passes, emit the command.
    case submit
    /// `cancel`: close the dialog without emitting anything.
    case cancel
}
