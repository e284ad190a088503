/// `TUIMode` is what currently receives keys: the list itself or a modal on top of it.
public enum TUIMode: Sendable, Hashable {
    /// `list`: the task list has the keys.
    case list
    /// `filter`: the filter prompt in the message line is being edited; the list filters as you type.
    case filter(LineEditor)
    /// `limitPrompt`: the prompt for the download speed all transfers share is open in the
    /// message line.
    case limitPrompt(LineEditor)
    /// `taskLimitPrompt`: the prompt for one task's own download speed is open.
    case taskLimitPrompt(LineEditor, TaskRow.ID)
    /// `retargetPrompt`: the prompt for a download's new URL is open.
    case retargetPrompt(LineEditor, TaskRow.ID)
    /// `form`: an add dialog is open.
    case form(FormDialog)
    /// `confirmRemove`: the remove confirmation is open.
    case confirmRemove(RemovalConfirmation)
    /// `confirmPurge`: the question that removes the done or the failed tasks is open.
    case confirmPurge(PurgeQuestion)
    /// `confirmStop`: the question that quits and stops the transfers is open.
    case confirmStop(StopQuestion)
    /// The help screen is open, scrolled by `scroll` lines.
    case help(scroll: Int)
    /// `text`: the full-text view of a task's details is open.
    case text(TextViewer)
}
