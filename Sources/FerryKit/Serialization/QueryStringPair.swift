/// `QueryStringPair` is one `field=value` component of a query string, before escaping.
///
/// It is AFNetworking's `AFQueryStringPair`: the field is the full bracketed key
/// (`user[name]`, `tags[]`), the value a leaf of the parameter tree.
public struct QueryStringPair: Sendable, Hashable {
    /// The key, with the brackets of the enclosing dictionaries and arrays.
    public var field: String
    /// The leaf value; `.null` is written as the bare field, without `=`.
    public var value: ParameterValue

    public init(field: String, value: ParameterValue) {
        self.field = field
        self.value = value
    }

    /// The percent-escaped `field=value`, or the escaped field alone when the value is null.
    public var urlEncodedStringValue: String {
        let escapedField = QueryString.percentEscaped(field)
        if case .null = value { return escapedField }
        return escapedField + "=" + QueryString.percentEscaped(value.foundationDescription)
    }
}
