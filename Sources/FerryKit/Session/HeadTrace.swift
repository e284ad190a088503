/// `HeadTrace` is an HTTP head, or a line of one, as libcurl sent or received it: what `-v`
/// shows (``SessionConfiguration/headTrace``). Its ``maskedLines`` are the only form to print.
public struct HeadTrace: Sendable, Equatable {
    /// `Direction` says whether the head was sent (a request) or received (a response).
    public enum Direction: Sendable, Equatable {
        case sent, received
    }

    public let direction: Direction
    /// The text as libcurl gave it: a whole request head when sent, one line when received.
    public let text: String

    public init(direction: Direction, text: String) {
        self.direction = direction
        self.text = text
    }

    /// The lines of the head with secrets masked (`URLMasking`): the values of secret headers
    /// (`Authorization`, `Cookie`, `X-Api-Key`, ...) become `***`, and so do the secrets in the
    /// request target and in a `Location`; each line starts with `> ` (sent) or `< ` (received),
    /// as `curl -v` shows them; blank lines are left out.
    public var maskedLines: [String] {
        let prefix = direction == .sent ? "> " : "< "
        var lines: [String] = []
        for (index, raw) in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw)
            lines.append(prefix + Self.mask(line, isRequestLine: direction == .sent && index == 0))
        }
        return lines
    }

    /// `mask(_:isRequestLine:)` masks one line: the target of a request line, else the value
    /// of a header field whose name says it is secret, or the URL of a `Location`.
    static func mask(_ line: String, isRequestLine: Bool) -> String {
        if isRequestLine {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return line }
            return "\(parts[0]) \(URLMasking.mask(String(parts[1]))) \(parts[2])"
        }
        guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("HTTP/") else { return line }
        let name = String(line[..<colon])
        if URLMasking.isSecretHeader(name) { return name + ": ***" }
        if name.lowercased() == "location" {
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
            return name + ": " + URLMasking.mask(String(value))
        }
        return line
    }
}
