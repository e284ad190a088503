/// `ListAction` is what a key does in the task list.
public enum ListAction: Sendable, Hashable, CaseIterable {
    /// `moveUp`: select the previous task.
    case moveUp
    /// `moveDown`: select the next task.
    case moveDown
    /// `pageUp`: select one page up.
    case pageUp
    /// `pageDown`: select one page down.
    case pageDown
    /// `first`: select the first task.
    case first
    /// `last`: select the last task.
    case last
    /// `addDownload`: open the add-download dialog.
    case addDownload
    /// `addUpload`: open the add-upload dialog.
    case addUpload
    /// `togglePause`: pause or resume the selected task.
    case togglePause
    /// `togglePauseAll`: pause every active task, or resume all when none is active.
    case togglePauseAll
    /// `retry`: retry the selected failed or cancelled task.
    case retry
    /// `remove`: ask whether to remove the selected task.
    case remove
    /// `purge`: ask whether to remove every done (or every failed) task.
    case purge
    /// `moveTaskUp`: move the selected task towards the front of the queue.
    case moveTaskUp
    /// `moveTaskDown`: move the selected task towards the back of the queue.
    case moveTaskDown
    /// `filter`: open the filter prompt.
    case filter
    /// `clearFilter`: clear the filter (nothing when there is none).
    case clearFilter
    /// `cycleSort`: switch to the next sort order.
    case cycleSort
    /// `toggleDetail`: show or hide the detail pane.
    case toggleDetail
    /// `viewText`: open the selected task's details in full, in a scrollable view.
    case viewText
    /// `addPasted`: open the add dialog with pasted text (a paste outside any dialog).
    case addPasted
    /// `help`: open the help screen.
    case help
    /// `fasterOverall` / `slowerOverall`: raise or lower the download speed all transfers
    /// share, one step (`TransferLimits.overallSteps`); `typeOverallLimit` opens a prompt for one.
    case fasterOverall
    case slowerOverall
    case typeOverallLimit
    /// `typeTaskLimit`: a prompt for the selected download's own speed limit.
    case typeTaskLimit
    /// `typeRetarget`: a prompt for the selected download's new URL (an expired link).
    case typeRetarget
    /// `moreAtOnce` / `fewerAtOnce`: raise or lower the engine's limit of transfers at once.
    case moreAtOnce
    case fewerAtOnce
    /// `morePerHost` / `fewerPerHost`: raise or lower the limit of transfers to one host.
    case morePerHost
    case fewerPerHost
    /// `quit`: quit the front end (the transfers go on in the daemon).
    case quit
    /// `quitAndStop`: ask whether to quit and stop the transfers.
    case quitAndStop
    /// `redraw`: repaint the whole terminal.
    case redraw
}
