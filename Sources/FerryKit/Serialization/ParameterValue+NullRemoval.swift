extension ParameterValue {
    /// The value with every null removed, recursively: dictionary entries whose value is null
    /// and null elements of arrays. It is AFNetworking's `AFJSONObjectByRemovingKeysWithNullValues`.
    ///
    /// A top-level null stays null. `{"a":null,"b":[{"c":null}],"d":[null]}` becomes `{"b":[{}],"d":[]}`.
    public func removingNullValues() -> ParameterValue {
        switch self {
        case .array(let elements):
            .array(elements.filter { $0 != .null }.map { $0.removingNullValues() })
        case .dictionary(let entries):
            .dictionary(entries.filter { $0.value != .null }.mapValues { $0.removingNullValues() })
        default:
            self
        }
    }
}
