import Hummingbird
import NIOCore

/// `RequestOriginMiddleware` answers 403 with a short plain message, before any route runs, a
/// request of a TCP endpoint that its `RequestOriginPolicy` refuses.
struct RequestOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: RequestOriginPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let refusal = policy.refusal(of: request.head) else { return try await next(request, context) }
        return Response(
            status: .forbidden,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: refusal.message))
        )
    }
}

extension RequestOriginPolicy {
    /// `refusal(of:)` is why the request with this head is refused, or `nil`: its `Host` (the
    /// parser's authority, and any further `Host` field) and its `Origin` fields.
    func refusal(of head: HTTPRequest) -> Refusal? {
        // The parser moves the first `Host` to the authority; any further one stays a field.
        let further = head.headerFields.filter { $0.name.canonicalName == "host" }.map(\.value)
        return refusal(hosts: (head.authority.map { [$0] } ?? []) + further, origins: head.headerFields[values: .origin])
    }
}
