/// `KeyHint` is one entry of a key-hint line: a key's name and a short label.
public struct KeyHint: Sendable, Hashable {
    /// `key` is the display name of the binding's first key.
    public var key: String
    /// `label` is the binding's short hint.
    public var label: String

    /// `init(key:label:)` makes a hint.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}
