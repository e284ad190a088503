/// `TUIEffect` is what a state update asks the outside world to do.
public enum TUIEffect: Sendable, Hashable {
    /// Hand a command to the application's `TaskController`.
    case perform(TUICommand)
    /// `show`: ask the `TaskController` for the rows the screen needs.
    case show(TaskViewRequest)
    /// `redrawAll`: repaint the whole terminal (Ctrl-L).
    case redrawAll
    /// `quit`: stop the run loop and restore the terminal.
    case quit
    /// `bell`: ring the terminal's bell (the queue emptied and `--bell` asked for it).
    case bell
}
