import FerryQueue

/// `TaskFilter` is the table's filter text taken apart: `state:WORD` terms (the states whose
/// name starts with WORD), `host:WORD` terms (the first URL's host contains WORD) and the
/// rest, which the name must contain. Terms of one kind are alternatives
/// (`state:failed state:paused`); the kinds and the text must all match. Everything is
/// case-insensitive; a term with nothing after the colon is ignored (it is being typed).
public struct TaskFilter: Sendable, Hashable {
    /// `text` is the lower-cased text the name must contain; empty for any name.
    public var text: String
    /// `states` are the states listed, `nil` for all.
    public var states: Set<TaskState>?
    /// `hosts` are lower-cased parts of a host, one of which the host must contain; empty for any host.
    public var hosts: [String]

    /// `init(_:)` parses filter text as typed.
    public init(_ filter: String) {
        var words: [Substring] = []
        var states: Set<TaskState>?
        var hosts: [String] = []
        for word in filter.split(whereSeparator: { $0.isWhitespace }) {
            let lowered = word.lowercased()
            if lowered.hasPrefix("state:") {
                let value = lowered.dropFirst("state:".count)
                guard !value.isEmpty else { continue }
                states = (states ?? []).union(TaskState.allCases.filter { $0.label.hasPrefix(value) })
            } else if lowered.hasPrefix("host:") {
                let value = String(lowered.dropFirst("host:".count))
                if !value.isEmpty { hosts.append(value) }
            } else {
                words.append(word)
            }
        }
        text = words.joined(separator: " ").lowercased()
        self.states = states
        self.hosts = hosts
    }

    /// `isEmpty` is true when the filter lists every task.
    public var isEmpty: Bool { text.isEmpty && states == nil && hosts.isEmpty }

    /// `needsNames` is true when the name or the host must be known to match.
    public var needsNames: Bool { !text.isEmpty || !hosts.isEmpty }

    /// `matches(name:state:url:)` is true when a task named `name`, in `state`, whose first
    /// URL is `url` passes the filter.
    public func matches(name: String, state: TaskState, url: String?) -> Bool {
        if let states, !states.contains(state) { return false }
        if !hosts.isEmpty {
            guard let host = url.flatMap(Self.host(of:)), hosts.contains(where: { host.contains($0) }) else { return false }
        }
        return text.isEmpty || name.lowercased().contains(text)
    }

    /// `host(of:)` is the lower-cased host of a URL (`https://user@Example.org:8080/x` gives
    /// `example.org`), `nil` when it has none.
    public static func host(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        var authority = url[scheme.upperBound...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = authority[..<end]
        }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            authority = authority[authority.index(after: authority.startIndex)..<close]
        } else if let colon = authority.lastIndex(of: ":") {
            authority = authority[..<colon]
        }
        return authority.isEmpty ? nil : authority.lowercased()
    }
}
