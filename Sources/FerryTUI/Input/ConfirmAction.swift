/// `ConfirmAction` is the answer to the remove confirmation.
public enum ConfirmAction: Sendable, Hashable, CaseIterable {
    /// `remove`: remove the task and keep its file.
    case remove
    /// `removeAndDeleteFile`: remove the task and delete its file.
    case removeAndDeleteFile
    /// `cancel`: keep the task.
    case cancel
}
