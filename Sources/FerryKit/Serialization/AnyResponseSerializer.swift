import Foundation

/// `AnyResponseSerializer` is a type-erased ``ResponseSerializer``, optionally with its output
/// transformed, so that serializers with different outputs can sit in one
/// ``CompoundResponseSerializer``.
///
/// The wrapped serializer's own validation is kept.
public struct AnyResponseSerializer<Output: Sendable>: ResponseSerializer {
    public let acceptableStatusCodes: IndexSet
    public let acceptableContentTypes: Set<String>?
    private let validateResponse: @Sendable (HTTPResponse, Data) throws(FerryError) -> Void
    private let serializeResponse: @Sendable (HTTPResponse, Data) throws(FerryError) -> Output

    /// Wraps `serializer` as it is.
    public init<Wrapped: ResponseSerializer>(_ serializer: Wrapped) where Wrapped.Output == Output {
        self.init(serializer) { (output: Output) throws(FerryError) -> Output in output }
    }

    /// Wraps `serializer`, passing its output through `transform`.
    public init<Wrapped: ResponseSerializer>(
        _ serializer: Wrapped,
        transform: @escaping @Sendable (Wrapped.Output) throws(FerryError) -> Output
    ) {
        acceptableStatusCodes = serializer.acceptableStatusCodes
        acceptableContentTypes = serializer.acceptableContentTypes
        validateResponse = { (response, data) throws(FerryError) in try serializer.validate(response: response, data: data) }
        serializeResponse = { (response, data) throws(FerryError) in try transform(serializer.serialize(response: response, data: data)) }
    }

    public func validate(response: HTTPResponse, data: Data) throws(FerryError) {
        try validateResponse(response, data)
    }

    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> Output {
        try serializeResponse(response, data)
    }
}
