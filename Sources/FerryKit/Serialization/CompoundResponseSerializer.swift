import Foundation

/// `CompoundResponseSerializer` tries several serializers in order; the first that succeeds
/// wins. It is AFNetworking's `AFCompoundResponseSerializer`.
///
/// When none succeeds, the error is the status failure of the first serializer that failed
/// on its status, if every serializer failed validation (so a 404 stays a 404); otherwise
/// ``SerializationReason/noSerializerSucceeded(_:)`` with every serializer's error, in order.
public struct CompoundResponseSerializer<Output: Sendable>: ResponseSerializer {
    /// The serializers, tried in order.
    public var serializers: [AnyResponseSerializer<Output>]

    public init(_ serializers: [AnyResponseSerializer<Output>]) {
        self.serializers = serializers
    }

    /// The status codes any of the serializers accepts.
    public var acceptableStatusCodes: IndexSet {
        serializers.reduce(into: IndexSet()) { $0.formUnion($1.acceptableStatusCodes) }
    }

    /// The media types any of the serializers accepts; `nil` (any) if one of them accepts any.
    public var acceptableContentTypes: Set<String>? {
        var union = Set<String>()
        for serializer in serializers {
            guard let types = serializer.acceptableContentTypes else { return nil }
            union.formUnion(types)
        }
        return union
    }

    /// Passes when one of the serializers accepts the response.
    public func validate(response: HTTPResponse, data: Data) throws(FerryError) {
        var errors: [FerryError] = []
        for serializer in serializers {
            do {
                try serializer.validate(response: response, data: data)
                return
            } catch {
                errors.append(error)
            }
        }
        throw Self.combinedError(errors)
    }

    /// The output of the first serializer that succeeds.
    public func serialize(response: HTTPResponse, data: Data) throws(FerryError) -> Output {
        var errors: [FerryError] = []
        for serializer in serializers {
            do {
                return try serializer.serialize(response: response, data: data)
            } catch {
                errors.append(error)
            }
        }
        throw Self.combinedError(errors)
    }

    private static func combinedError(_ errors: [FerryError]) -> FerryError {
        let allValidation = !errors.isEmpty && errors.allSatisfy { if case .validation = $0 { true } else { false } }
        if allValidation {
            let statusFailure = errors.first { if case .validation(.unacceptableStatus) = $0 { true } else { false } }
            if let error = statusFailure ?? errors.first { return error }
        }
        return .serialization(.noSerializerSucceeded(errors.map(\.description)))
    }
}
