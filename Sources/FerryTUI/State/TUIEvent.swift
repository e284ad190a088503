/// `TUIEvent` is anything that changes the front end's state: task updates from the
/// application, keys and resizes from the terminal, and the clock.
public enum TUIEvent: Sendable, Hashable {
    /// The complete list of tasks, replacing whatever was shown.
    case replaceTasks([TaskRow])
    /// New or changed tasks; rows with an unknown id are added.
    case updateTasks([TaskRow])
    /// Tasks that no longer exist.
    case removeTasks([TaskRow.ID])
    /// A note for the message line.
    case message(StatusMessage)
    /// A key press.
    case key(Key)
    /// The terminal's new size.
    case resize(Size)
    /// The once-a-second tick, sent only while a task runs (it animates unknown-size progress).
    case tick
    /// The application asks the front end to close.
    case close
}
