/// `KeyMap` is a table of key bindings for one context (task list, dialog, ...): it decodes
/// keys into actions and produces the key hints and the help screen's entries, so all
/// three always agree.
public struct KeyMap<Action: Hashable & Sendable>: Sendable {
    /// `title` names the context on the help screen.
    public let title: String
    /// `bindings` are the rows of the map, in hint and help order.
    public let bindings: [KeyBinding<Action>]
    private let lookup: [Key: Action]

    /// `init(title:bindings:)` makes a map; when a key appears twice the first binding wins
    /// (see `duplicateKeys`).
    public init(title: String, bindings: [KeyBinding<Action>]) {
        self.title = title
        self.bindings = bindings
        var lookup: [Key: Action] = [:]
        for binding in bindings {
            for key in binding.keys where lookup[key] == nil { lookup[key] = binding.action }
        }
        self.lookup = lookup
    }

    /// `action(for:)` is the action bound to `key`, `nil` when the key is unbound.
    public func action(for key: Key) -> Action? { lookup[key] }

    /// `hints` are the entries of the key-hint line, in binding order.
    public var hints: [KeyHint] { hints { _ in true } }

    /// `hints(where:)` are the key-hint entries of the bindings whose action passes `include`.
    public func hints(where include: (Action) -> Bool) -> [KeyHint] {
        hints(where: include, alternate: { _ in false })
    }

    /// `hints(where:alternate:)` are the key-hint entries of the bindings whose action passes
    /// `include`, with the alternate label of those whose action passes `alternate`.
    public func hints(where include: (Action) -> Bool, alternate: (Action) -> Bool) -> [KeyHint] {
        bindings.compactMap { binding in
            guard let label = binding.hint, let key = binding.keys.first, include(binding.action) else { return nil }
            let shown = alternate(binding.action) ? binding.alternateHint ?? label : label
            return KeyHint(key: key.displayName, label: shown)
        }
    }

    /// `helpEntries` are the help screen's rows for this map: all key names and the sentence.
    public var helpEntries: [(keys: String, help: String)] {
        bindings.map { ($0.keyNames, $0.help) }
    }

    /// `duplicateKeys` lists keys bound more than once in this map; a well-formed map has none.
    public var duplicateKeys: [Key] {
        var seen: Set<Key> = []
        var duplicates: [Key] = []
        for key in bindings.flatMap(\.keys) where !seen.insert(key).inserted {
            duplicates.append(key)
        }
        return duplicates
    }
}
