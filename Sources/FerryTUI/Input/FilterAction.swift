/// `FilterAction` is what a key does in the filter prompt, before line editing is considered.
public enum FilterAction: Sendable, Hashable, CaseIterable {
    /// `apply`: keep the filter and return to the list.
    case apply
    /// `clear`: clear the filter and return to the list.
    case clear
}
