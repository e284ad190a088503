import FerryKit
import Foundation
import Synchronization

/// `Console` writes to the terminal: messages on stderr, results on stdout.
///
/// Messages may carry text from the network (a reason phrase, a server's error page, a name
/// from a header) or from the user: ``error(_:)`` and ``status(_:)`` escape every control and
/// format character but the line breaks (`String.displayable`), so no message can drive the
/// terminal. Ferry's own progress goes through ``redrawBlock(_:replacing:)`` and ``clearBlock(_:)``.
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

    /// Draws `lines` (escaped; none wider than the terminal) in place of the `previous` lines
    /// drawn last by this call, leaving the cursor at the end of the last one, so that the
    /// next call draws over them: the progress block on a terminal.
    static func redrawBlock(_ lines: [String], replacing previous: Int) {
        guard !quiet else { return }
        var text = "\r" + (previous > 1 ? "\u{1B}[\(previous - 1)A" : "")
        for (index, line) in lines.enumerated() {
            text += (index > 0 ? "\n" : "") + line.displayable + "\u{1B}[K"
        }
        text += "\u{1B}[J"
        write(text, to: STDERR_FILENO)
    }

    /// Clears the `count` lines drawn last by ``redrawBlock(_:replacing:)`` and leaves the
    /// cursor where the first of them began, before a message is printed.
    static func clearBlock(_ count: Int) {
        guard !quiet, count > 0 else { return }
        write("\r" + (count > 1 ? "\u{1B}[\(count - 1)A" : "") + "\u{1B}[J", to: STDERR_FILENO)
    }

    /// The columns and rows of the terminal on stderr, `nil` when it is none.
    static var terminalSize: (columns: Int, rows: Int)? {
        SystemCall.terminalSize(STDERR_FILENO)
    }

    /// Writes `text` (already escaped, whole lines) to stderr even with `-q`: the heads `-v`
    /// asked for.
    static func trace(_ text: String) {
        write(text, to: STDERR_FILENO)
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
