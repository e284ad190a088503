extension HTTPHeaders {
    /// Header names that describe a request body (lowercased): they go when a redirect turns
    /// the request into one without a body (the Fetch standard's request-body-header names,
    /// plus the framing and `Expect`).
    public static let bodyFieldNames: Set<String> = [
        "content-type", "content-length", "content-encoding", "content-language", "content-location",
        "content-md5", "content-range", "digest", "content-digest", "transfer-encoding", "expect",
    ]

    /// `isBodyField(_:)` is true for a header that describes a request body.
    public static func isBodyField(_ name: String) -> Bool {
        bodyFieldNames.contains(name.lowercased())
    }

    /// The fields without those describing a body: what a request keeps when a redirect
    /// drops its body (a POST answered with 303, for example).
    public var withoutBodyFields: HTTPHeaders {
        var kept = HTTPHeaders()
        for field in self where !Self.isBodyField(field.name) {
            kept.add(name: field.name, value: field.value)
        }
        return kept
    }
}
