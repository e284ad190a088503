/// `KeyBinding` is one row of a key map: the keys, the action they trigger and the words
/// used for it in the key hints and on the help screen.
public struct KeyBinding<Action: Hashable & Sendable>: Sendable, Hashable {
    /// `keys` trigger the action; the first one is named in the key hints.
    public var keys: [Key]
    /// `action` is what the keys do.
    public var action: Action
    /// `hint` is the short label in the key-hint line; `nil` keeps the binding out of it.
    public var hint: String?
    /// `alternateHint` replaces `hint` when the action would do its other half (the pause
    /// key on a paused task says "Resume"); `nil` by default.
    public var alternateHint: String?
    /// `help` is the sentence on the help screen.
    public var help: String

    /// `init(_:_:hint:alternateHint:help:)` makes a binding; it is left out of the key hints by default.
    public init(_ keys: [Key], _ action: Action, hint: String? = nil, alternateHint: String? = nil, help: String) {
        self.keys = keys
        self.action = action
        self.hint = hint
        self.alternateHint = alternateHint
        self.help = help
    }

    /// `keyNames` names all of the binding's keys for the help screen, for example `"↑/k"`.
    public var keyNames: String { keys.map(\.displayName).joined(separator: "/") }
}
