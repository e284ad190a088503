import Foundation
import Synchronization

/// `PropertyListRequestSerializer` encodes parameters as a property-list body. It is
/// AFNetworking's `AFPropertyListRequestSerializer`.
///
/// For the methods in ``HTTPRequestSerializer/httpMethodsEncodingParametersInURI`` the
/// parameters go into the URL's query, through ``http``. Otherwise, when there are
/// parameters, the body is the property list written by Foundation's
/// `PropertyListSerialization` and the Content-Type `application/x-plist` unless the request
/// has one. Null and sets fail with ``SerializationReason/encodingFailed(_:)``. Safe to use
/// from any thread.
public final class PropertyListRequestSerializer: RequestSerializer {
    /// The Content-Type of the body, `application/x-plist`.
    public static let contentType = "application/x-plist"

    /// The HTTP serializer whose default headers, URI methods and request properties this
    /// serializer uses, and which encodes the query for those methods.
    public let http: HTTPRequestSerializer
    private let propertyListFormat: Mutex<PropertyListSerialization.PropertyListFormat>

    /// Creates a serializer writing `format` (XML by default), sharing the headers and settings
    /// of `http` (a new ``HTTPRequestSerializer`` by default).
    public init(format: PropertyListSerialization.PropertyListFormat = .xml, http: HTTPRequestSerializer = HTTPRequestSerializer()) {
        self.http = http
        propertyListFormat = Mutex(format)
    }

    /// The format written, `.xml` or `.binary`; `.xml` by default. Foundation cannot write `.openStep`.
    public var format: PropertyListSerialization.PropertyListFormat {
        get { propertyListFormat.withLock { $0 } }
        set { propertyListFormat.withLock { $0 = newValue } }
    }

    public func request(bySerializing request: Request, parameters: ParameterValue?) throws(FerryError) -> Request {
        let format = format
        return try http.request(bySerializing: request, parameters: parameters, bodyContentType: Self.contentType) { parameters throws(FerryError) in
            try parameters.propertyListData(format: format)
        }
    }
}
