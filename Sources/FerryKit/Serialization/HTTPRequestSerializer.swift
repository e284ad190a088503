import Foundation
import Synchronization

/// `HTTPRequestSerializer` encodes parameters as a query string, in the URL for `GET`, `HEAD`
/// and `DELETE` and as an `application/x-www-form-urlencoded` body for other methods, and adds
/// default headers. It is AFNetworking's `AFHTTPRequestSerializer`.
///
/// The default headers are `Accept-Language` (from the locale settings in the environment,
/// see ``AcceptLanguage``) and `User-Agent` (``FerryVersion/userAgent``); a header the request
/// already has is never replaced. Every property may be read and written from any thread:
/// the state sits in one `Mutex`.
///
/// Of the request properties AFNetworking copies into each request, only the connect timeout
/// has a meaning on Linux with libcurl; `docs/SERIALIZATION.md` lists the others.
public final class HTTPRequestSerializer: RequestSerializer {
    /// `QueryStringSerialization` replaces the default query-string encoding: it receives the
    /// request before serialization and the parameters, and returns the query without `?`.
    public typealias QueryStringSerialization = @Sendable (Request, ParameterValue) throws(FerryError) -> String

    /// The methods whose parameters go into the URL by default: `GET`, `HEAD` and `DELETE`.
    public static let defaultHTTPMethodsEncodingParametersInURI: Set<HTTPMethod> = [.get, .head, .delete]

    /// The Content-Type of a form body, `application/x-www-form-urlencoded`.
    public static let formContentType = "application/x-www-form-urlencoded"

    private struct State {
        var headers: HTTPHeaders
        var methodsEncodingParametersInURI: Set<HTTPMethod>
        var queryStringSerialization: QueryStringSerialization?
        var connectTimeout: Double?
    }

    private let state: Mutex<State>

    /// Creates a serializer whose `Accept-Language` comes from `environment` (the process
    /// environment by default).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var headers = HTTPHeaders()
        headers["Accept-Language"] = AcceptLanguage.headerValue(environment: environment)
        headers["User-Agent"] = FerryVersion.userAgent
        state = Mutex(State(
            headers: headers,
            methodsEncodingParametersInURI: Self.defaultHTTPMethodsEncodingParametersInURI,
            queryStringSerialization: nil,
            connectTimeout: nil
        ))
    }

    /// `self`: the HTTP serializer is its own source of headers and properties.
    public var http: HTTPRequestSerializer { self }

    // MARK: Headers

    /// The default headers added to every serialized request that lacks them, in order.
    public var httpRequestHeaders: HTTPHeaders {
        state.withLock { $0.headers }
    }

    /// Sets the default header `field` to `value`; `nil` removes it. Names are case-insensitive.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        state.withLock { $0.headers[field] = value }
    }

    /// The default value of the header `field`, or `nil`.
    public func value(forHTTPHeaderField field: String) -> String? {
        state.withLock { $0.headers[field] }
    }

    /// Sets a default `Authorization` header for HTTP Basic authentication:
    /// `Basic` and the Base64 of the UTF-8 of `username:password`.
    public func setAuthorizationHeader(username: String, password: String) {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
    }

    /// Removes the default `Authorization` header.
    public func clearAuthorizationHeader() {
        setValue(nil, forHTTPHeaderField: "Authorization")
    }

    // MARK: Configuration

    /// The methods whose parameters are encoded into the URL's query rather than the body;
    /// ``defaultHTTPMethodsEncodingParametersInURI`` by default.
    public var httpMethodsEncodingParametersInURI: Set<HTTPMethod> {
        get { state.withLock { $0.methodsEncodingParametersInURI } }
        set { state.withLock { $0.methodsEncodingParametersInURI = newValue } }
    }

    /// Seconds allowed to connect, copied into ``Request/connectTimeout`` of the requests made
    /// by ``RequestSerializer/request(method:url:parameters:)``; `nil` (not set) by default.
    ///
    /// This is the Linux meaning of AFNetworking's `timeoutInterval`.
    public var connectTimeout: Double? {
        get { state.withLock { $0.connectTimeout } }
        set { state.withLock { $0.connectTimeout = newValue } }
    }

    /// Replaces the default query-string encoding with `serialization`; `nil` restores
    /// ``QueryString`` (the default).
    public func setQueryStringSerialization(_ serialization: QueryStringSerialization?) {
        state.withLock { $0.queryStringSerialization = serialization }
    }

    // MARK: Serializing

    /// The request with the missing default headers added and `parameters` encoded: into the
    /// URL's query for the methods in ``httpMethodsEncodingParametersInURI`` (after `&` when
    /// the URL already has a query), otherwise as the body, which is then replaced even when
    /// `parameters` is `nil` (an empty form is a valid body). The Content-Type is set to
    /// `application/x-www-form-urlencoded` only when the request has none.
    ///
    /// The default encoding needs a dictionary; other parameters fail with
    /// ``SerializationReason/encodingFailed(_:)`` unless a custom serialization is set.
    /// The request encoded the way the JSON and property-list serializers do it: parameters in the
    /// URI for ``httpMethodsEncodingParametersInURI``, otherwise `encode(parameters)` as the body with
    /// `bodyContentType` unless the request has a Content-Type. No parameters leave the body alone.
    func request(bySerializing request: Request, parameters: ParameterValue?, bodyContentType: String, encode: (ParameterValue) throws(FerryError) -> Data) throws(FerryError) -> Request {
        if httpMethodsEncodingParametersInURI.contains(request.method) {
            return try self.request(bySerializing: request, parameters: parameters)
        }
        var result = request
        Self.addMissingHeaders(httpRequestHeaders, to: &result)
        if let parameters {
            if !result.headers.contains("Content-Type") {
                result.headers["Content-Type"] = bodyContentType
            }
            result.body = .data(try encode(parameters))
        }
        return result
    }

    public func request(bySerializing request: Request, parameters: ParameterValue?) throws(FerryError) -> Request {
        let (headers, methodsInURI, custom) = state.withLock { ($0.headers, $0.methodsEncodingParametersInURI, $0.queryStringSerialization) }
        var result = request
        Self.addMissingHeaders(headers, to: &result)

        var query: String?
        if let parameters {
            if let custom {
                query = try custom(request, parameters)
            } else {
                query = try Self.defaultQuery(for: parameters)
            }
        }

        if methodsInURI.contains(request.method) {
            if let query, !query.isEmpty {
                result.url = try Self.url(result.url, appendingQuery: query)
            }
        } else {
            if !result.headers.contains("Content-Type") {
                result.headers["Content-Type"] = Self.formContentType
            }
            result.body = .data(Data((query ?? "").utf8))
        }
        return result
    }

    /// Adds to `request` each of `headers` it does not have yet.
    static func addMissingHeaders(_ headers: HTTPHeaders, to request: inout Request) {
        for field in headers where !request.headers.contains(field.name) {
            request.headers.add(name: field.name, value: field.value)
        }
    }

    /// Copies the request properties that were set into `request`.
    func applyRequestProperties(to request: inout Request) {
        if let connectTimeout {
            request.connectTimeout = connectTimeout
        }
    }

    private static func defaultQuery(for parameters: ParameterValue) throws(FerryError) -> String {
        guard case .dictionary(let dictionary) = parameters else {
            throw .serialization(.encodingFailed("query string parameters must be a dictionary"))
        }
        return QueryString.string(from: dictionary)
    }

    /// `url` with `query` added: after `?`, or after `&` when the URL already has a query
    /// (even an empty one); any fragment stays at the end.
    static func url(_ url: URL, appendingQuery query: String) throws(FerryError) -> URL {
        let text = url.absoluteString
        let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
        let beforeFragment = text[..<fragmentStart]
        let separator = beforeFragment.contains("?") ? "&" : "?"
        let combined = String(beforeFragment) + separator + query + String(text[fragmentStart...])
        guard let result = URL(string: combined) else {
            throw .serialization(.encodingFailed("the query cannot be added to \(URLMasking.mask(url))"))
        }
        return result
    }
}
