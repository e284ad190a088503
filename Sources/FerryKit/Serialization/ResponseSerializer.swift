import Foundation

/// `ResponseSerializer` validates a response and decodes its body. It is AFNetworking's
/// `AFURLResponseSerialization` with the validation of `AFHTTPResponseSerializer`.
///
/// ``serialize(response:data:)`` validates first (see ``validate(response:data:)``), then
/// decodes. Serializers are values and safe to share between threads.
public protocol ResponseSerializer: Sendable {
    /// What a body decodes to.
    associatedtype Output: Sendable

    /// The status codes that are accepted.
    var acceptableStatusCodes: IndexSet { get }

    /// The media types (lowercased, without parameters) that are accepted; `nil` accepts any.
    var acceptableContentTypes: Set<String>? { get }

    /// Checks the status code, then the Content-Type.
    ///
    /// The default implementation fails with ``ValidationReason/unacceptableStatus(_:reason:url:body:)``
    /// when the status is not in ``acceptableStatusCodes``, then, when the body is not empty,
    /// with ``ValidationReason/unacceptableContentType(_:acceptable:url:)`` or
    /// ``ValidationReason/missingContentType(acceptable:url:)`` when its media type is not in
    /// ``acceptableContentTypes``. As in AFNetworking, an empty body is never rejected for its
    /// Content-Type. URLs in errors are masked; a status error keeps up to
    /// ``HTTPResponseSerializer/maximumErrorBodyLength`` bytes of the body.
    func validate(response: HTTPResponse, data: Data) throws(FerryError)

    /// Validates the response, then decodes `data`.
    func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> Output
}

extension ResponseSerializer {
    public func validate(response: HTTPResponse, data: Data) throws(FerryError) {
        let url = URLMasking.mask(response.url)
        guard acceptableStatusCodes.contains(response.statusCode) else {
            let body = data.isEmpty ? nil : Data(data.prefix(HTTPResponseSerializer.maximumErrorBodyLength))
            throw .validation(.unacceptableStatus(response.statusCode, reason: response.reasonPhrase, url: url, body: body))
        }
        guard let acceptableContentTypes, !data.isEmpty else { return }
        let acceptable = acceptableContentTypes.map { $0.lowercased() }
        guard let mimeType = response.mimeType else {
            throw .validation(.missingContentType(acceptable: acceptable.sorted(), url: url))
        }
        guard acceptable.contains(mimeType) else {
            throw .validation(.unacceptableContentType(mimeType, acceptable: acceptable.sorted(), url: url))
        }
    }

    /// A type-erased serializer whose output is `transform` applied to this one's.
    public func map<NewOutput: Sendable>(
        _ transform: @escaping @Sendable (Output) throws(FerryError) -> NewOutput
    ) -> AnyResponseSerializer<NewOutput> {
        AnyResponseSerializer(self, transform: transform)
    }

    /// This serializer behind the type-erasing ``AnyResponseSerializer``.
    public func eraseToAnyResponseSerializer() -> AnyResponseSerializer<Output> {
        AnyResponseSerializer(self)
    }
}
