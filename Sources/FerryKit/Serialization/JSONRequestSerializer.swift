import Foundation
import Synchronization

/// `JSONRequestSerializer` encodes parameters as a JSON body. It is AFNetworking's
/// `AFJSONRequestSerializer`.
///
/// For the methods in ``HTTPRequestSerializer/httpMethodsEncodingParametersInURI`` (`GET`,
/// `HEAD` and `DELETE` by default) the parameters still go into the URL's query, through
/// ``http``. Otherwise, when there are parameters, the body is their JSON and the Content-Type
/// `application/json` unless the request has one; parameters without a JSON form (NaN,
/// infinities, sets, data, dates, a top level that is not an array or a dictionary) fail with
/// ``SerializationReason/encodingFailed(_:)``. Safe to use from any thread.
public final class JSONRequestSerializer: RequestSerializer {
    /// The Content-Type of the body, `application/json`.
    public static let contentType = "application/json"

    /// The HTTP serializer whose default headers, URI methods and request properties this
    /// serializer uses, and which encodes the query for those methods.
    public let http: HTTPRequestSerializer
    private let options: Mutex<JSONWritingOptions>

    /// Creates a serializer writing JSON with `writingOptions` (none by default), sharing the
    /// headers and settings of `http` (a new ``HTTPRequestSerializer`` by default).
    public init(writingOptions: JSONWritingOptions = [], http: HTTPRequestSerializer = HTTPRequestSerializer()) {
        self.http = http
        options = Mutex(writingOptions)
    }

    /// How the JSON is written; empty (compact) by default.
    public var writingOptions: JSONWritingOptions {
        get { options.withLock { $0 } }
        set { options.withLock { $0 = newValue } }
    }

    public func request(bySerializing request: Request, parameters: ParameterValue?) throws(FerryError) -> Request {
        let options = writingOptions
        return try http.request(bySerializing: request, parameters: parameters, bodyContentType: Self.contentType) { parameters throws(FerryError) in
            try parameters.jsonData(options: options)
        }
    }
}
