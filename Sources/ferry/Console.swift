import Foundation

/// `Console` writes to the terminal: messages on stderr, results on stdout.
enum Console {
    /// Whether stderr is a terminal (progress lines are redrawn in place only then).
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes `ferry: MESSAGE` and a newline to stderr.
    static func error(_ message: String) {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        write("ferry: \(text)\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr as it is.
    static func status(_ text: String) {
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

    private static func write(_ text: String, to descriptor: Int32) {
        Array(text.utf8).withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
