/// `TUIEvent` is anything that changes the front end's state: task updates from the
/// application, keys and resizes from the terminal, and the clock.
public enum TUIEvent: Sendable, Hashable {
    /// `window`: the controller's answer to the latest `TUIEffect.show` request (sent again
    /// whenever the queue changes); an answer for another query than the current one only
    /// updates the figures.
    case window(TaskWindow)
    /// `updateTasks`: changed rows (live progress); the rows held with these ids are replaced,
    /// others are off screen and ignored.
    case updateTasks([TaskRow])
    /// `stats`: the queue's figures changed (counts, speeds).
    case stats(TaskStats)
    /// `message`: a note for the message line.
    case message(StatusMessage)
    /// `rejected`: the application refused a command from a dialog; the dialog is reopened
    /// with the problem shown (or, if another modal is open, the problem goes to the message line).
    case rejected(TUICommand, FieldProblem)
    /// `key`: a key press.
    case key(Key)
    /// `paste`: text pasted into the terminal (bracketed paste), never read as keys: it goes
    /// into the open dialog or filter, or opens the add dialog; modals that take no text ignore it.
    case paste(String)
    /// `resize`: the terminal's new size.
    case resize(Size)
    /// `tick`: the once-a-second tick, sent only while a task runs (it animates unknown-size progress).
    case tick
    /// `close`: the application asks the front end to close.
    case close
}
