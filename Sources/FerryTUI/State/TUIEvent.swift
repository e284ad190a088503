/// `TUIEvent` is anything that changes the front end's state: task updates from the
/// application, keys and resizes from the terminal, and the clock.
public enum TUIEvent: Sendable, Hashable {
    /// `replaceTasks`: the complete list of tasks, replacing whatever was shown.
    case replaceTasks([TaskRow])
    /// `updateTasks`: new or changed tasks; rows with an unknown id are added.
    case updateTasks([TaskRow])
    /// `removeTasks`: tasks that no longer exist.
    case removeTasks([TaskRow.ID])
    /// `message`: a note for the message line.
    case message(StatusMessage)
    /// `rejected`: the application refused a command from a dialog; the dialog is reopened
    /// with the problem shown (or, if another modal is open, the problem goes to the message line).
    case rejected(TUICommand, FieldProblem)
    /// `key`: a key press.
    case key(Key)
    /// `resize`: the terminal's new size.
    case resize(Size)
    /// `tick`: the once-a-second tick, sent only while a task runs (it animates unknown-size progress).
    case tick
    /// `close`: the application asks the front end to close.
    case close
}
