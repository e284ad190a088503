/// `FilterAction` is what a key does in the filter prompt, before line editing is considered.
public enum FilterAction: Sendable, Hashable, CaseIterable {
    /// Keep the filter and return to the list.
    case apply
    /// Clear the filter and return to the list.
    case clear
}
