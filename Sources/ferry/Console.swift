import FerryKit
import Foundation
import Synchronization

/// `Console` writes to the terminal: messages on stderr, results on stdout.
///
/// Messages may carry text from the network (a reason phrase, a server's error page, a name
/// from a header) or from the user: ``error(_:)`` and ``status(_:)`` escape every control and
/// format character but the line breaks (`String.displayable`), so no message can drive the
/// terminal. Ferry's own progress line goes through ``redrawLine(_:)`` and ``clearLine()``.
enum Console {
    /// Whether stderr is a terminal (progress lines are redrawn in place only then).
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Whether stdout is a terminal.
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1

    /// `quiet` is set once by `-q`: only errors reach stderr (no status line, no progress).
    private static let quietFlag = Atomic<Bool>(false)
    static var quiet: Bool {
        get { quietFlag.load(ordering: .relaxed) }
        set { quietFlag.store(newValue, ordering: .relaxed) }
    }

    /// Writes `ferry: MESSAGE` and a newline to stderr, escaped.
    static func error(_ message: String) {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        write("ferry: \(text.displayableLines)\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr, escaped but for its line breaks.
    static func status(_ text: String) {
        guard !quiet else { return }
        write(text.displayableLines, to: STDERR_FILENO)
    }

    /// Draws `line` (escaped) over the current line of stderr: the progress line on a terminal.
    static func redrawLine(_ line: String) {
        guard !quiet else { return }
        write("\r\u{1B}[K" + line.displayable, to: STDERR_FILENO)
    }

    /// Clears the current line of stderr (the progress line) before a message is printed.
    static func clearLine() {
        guard !quiet else { return }
        write("\r\u{1B}[K", to: STDERR_FILENO)
    }

    /// Writes a line to stdout.
    static func output(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` (whole lines) to stdout as it is.
    static func outputText(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes `bytes` to stdout as they are (a reply body); returns the `errno` of a failed write, else 0.
    @discardableResult
    static func outputBytes(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        write(bytes, to: STDOUT_FILENO)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        Array(text.utf8).withUnsafeBytes { buffer in
            _ = write(buffer, to: descriptor)
        }
    }

    @discardableResult
    private static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        SystemCall.writeAll(descriptor, buffer) ?? 0
    }
}
