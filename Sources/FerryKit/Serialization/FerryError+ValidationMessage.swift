extension FerryError {
    /// The message AFNetworking gives for a response that failed validation, or `nil` for
    /// any other error: `Request failed: not found (404)`,
    /// `Request failed: unacceptable content-type: text/html`, and, for a body without a
    /// Content-Type, `Request failed: unacceptable content-type: (null)`.
    public var validationMessage: String? {
        switch self {
        case .validation(.unacceptableStatus(let status, _, _, _)):
            "Request failed: \(HTTPStatus.localizedString(forStatusCode: status)) (\(status))"
        case .validation(.unacceptableContentType(let type, _, _)):
            "Request failed: unacceptable content-type: \(type)"
        case .validation(.missingContentType):
            "Request failed: unacceptable content-type: (null)"
        default:
            nil
        }
    }
}
