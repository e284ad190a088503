import Foundation
@testable import FerryKit

/// `SerializationFixtures` makes responses and bodies for the serializer tests.
enum SerializationFixtures {
    /// A response from `url` with `status` and, when given, a Content-Type.
    static func response(status: Int = 200, contentType: String? = nil, url: String = "https://example.com/api/items") throws -> HTTPResponse {
        guard let url = URL(string: url) else { throw FixtureError.badURL }
        var headers = HTTPHeaders()
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPResponse(url: url, statusCode: status, headers: headers)
    }

    enum FixtureError: Error {
        case badURL
    }
}
