import Foundation

/// `RequestSerializer` turns a request and its parameters into the request that is sent:
/// parameters in the URL's query or in the body, default headers added.
///
/// It is AFNetworking's `AFURLRequestSerialization`. Every serializer shares the header,
/// method and request-property handling of an ``HTTPRequestSerializer`` (its ``http``), the
/// way AFNetworking's JSON and property-list serializers inherit it. Serializers are safe to
/// use from any thread.
public protocol RequestSerializer: Sendable {
    /// The serializer holding the default headers, the methods whose parameters go into the
    /// URL, and the request properties; for an ``HTTPRequestSerializer`` itself, `self`.
    var http: HTTPRequestSerializer { get }

    /// The request with the default headers it lacks added and `parameters` encoded.
    ///
    /// `nil` parameters encode nothing (though a form body may still be set, as AFNetworking does).
    func request(bySerializing request: Request, parameters: ParameterValue?) throws(FerryError) -> Request
}

extension RequestSerializer {
    /// A new request for `method` and `url`, with the serializer's request properties applied
    /// (only those that were set) and `parameters` encoded.
    public func request(method: HTTPMethod, url: URL, parameters: ParameterValue? = nil) throws(FerryError) -> Request {
        var request = Request(url: url, method: method)
        http.applyRequestProperties(to: &request)
        return try self.request(bySerializing: request, parameters: parameters)
    }
}
