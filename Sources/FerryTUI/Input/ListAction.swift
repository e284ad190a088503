/// `ListAction` is what a key does in the task list.
public enum ListAction: Sendable, Hashable, CaseIterable {
    /// Select the previous task.
    case moveUp
    /// Select the next task.
    case moveDown
    /// Select one page up.
    case pageUp
    /// Select one page down.
    case pageDown
    /// Select the first task.
    case first
    /// Select the last task.
    case last
    /// Open the add-download dialog.
    case addDownload
    /// Open the add-upload dialog.
    case addUpload
    /// Pause or resume the selected task.
    case togglePause
    /// Pause every active task, or resume all when none is active.
    case togglePauseAll
    /// Retry the selected failed or cancelled task.
    case retry
    /// Ask whether to remove the selected task.
    case remove
    /// Move the selected task towards the front of the queue.
    case moveTaskUp
    /// Move the selected task towards the back of the queue.
    case moveTaskDown
    /// Open the filter prompt.
    case filter
    /// Switch to the next sort order.
    case cycleSort
    /// Show or hide the detail pane.
    case toggleDetail
    /// Open the help screen.
    case help
    /// Quit the front end.
    case quit
    /// Repaint the whole terminal.
    case redraw
}
