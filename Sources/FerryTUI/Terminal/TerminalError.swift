/// `TerminalError` is a failure to set up or drive the terminal.
public enum TerminalError: Error, Sendable, Hashable {
    /// A system call failed: its name and `errno`.
    case system(String, Int32)
    /// `notATerminal`: standard input or output is not a terminal.
    case notATerminal
    /// `cursesFailed`: ncurses could not initialise the screen.
    case cursesFailed(String)
}
