/// `ConfirmAction` is the answer to the remove confirmation.
public enum ConfirmAction: Sendable, Hashable, CaseIterable {
    /// Remove the task and keep its file.
    case remove
    /// Remove the task and delete its file.
    case removeAndDeleteFile
    /// Keep the task.
    case cancel
}
