import Foundation
import Testing
@testable import FerryKit

/// Hand-checked bodies for the fixed boundary `Boundary+0123456789ABCDEF`, written out literally.
@Suite("Multipart: byte-exact bodies")
struct MultipartBodyVectorTests {
    private func body(of form: MultipartFormData) throws -> Data {
        try MultipartFixtures.readAll(form.makeBodyStream(), chunk: 4096)
    }

    @Test func oneField() throws {
        // Given a form with one field
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "hello", name: "greeting")

        // When its body is read
        let body = try body(of: form)

        // Then it is the first boundary, the headers, the value and the final boundary
        let expected = "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"greeting\"\r\n"
            + "\r\n"
            + "hello"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(body == Data(expected.utf8))
        #expect(form.contentLength == 118)
        #expect(body.count == 118)
        #expect(form.contentType == "multipart/form-data; boundary=Boundary+0123456789ABCDEF")
    }

    @Test func severalParts() throws {
        // Given a field, a file from memory, a stream part and an empty field
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "ada", name: "user")
        try form.appendPart(fileData: Data("a,b\r\n1,2\r\n".utf8), name: "report", fileName: "r.csv", mimeType: "text/csv")
        try form.appendPart(name: "blob", fileName: "b.bin", mimeType: "application/octet-stream", length: 3) { DataBodyStream(Data("xyz".utf8)) }
        try form.appendPart(value: "", name: "note")

        // When its body is read
        let body = try body(of: form)

        // Then later parts open with CRLF before their boundary and only the last closes the body
        let expected = "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"user\"\r\n"
            + "\r\n"
            + "ada"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"report\"; filename=\"r.csv\"\r\n"
            + "Content-Type: text/csv\r\n"
            + "\r\n"
            + "a,b\r\n1,2\r\n"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"blob\"; filename=\"b.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n"
            + "\r\n"
            + "xyz"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"note\"\r\n"
            + "\r\n"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(String(decoding: body, as: UTF8.self) == expected)
        #expect(body == Data(expected.utf8))
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test func emptyFileInTheMiddle() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given an empty file between two fields
        let empty = try MultipartFixtures.makeFile("empty.txt", in: directory, contents: Data())
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "1", name: "a")
        try form.appendPart(fileURL: empty, name: "upload")
        try form.appendPart(value: "2", name: "b")

        // When its body is read
        let body = try body(of: form)

        // Then the file part has its headers and no body bytes
        let expected = "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"a\"\r\n"
            + "\r\n"
            + "1"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"upload\"; filename=\"empty.txt\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"b\"\r\n"
            + "\r\n"
            + "2"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(body == Data(expected.utf8))
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test func lastPartIsAFile() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a field and then a binary file (PNG signature: CR, LF and a high byte)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let file = try MultipartFixtures.makeFile("photo.png", in: directory, contents: png)
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "x", name: "title")
        try form.appendPart(fileURL: file, name: "photo")

        // When its body is read
        let body = try body(of: form)

        // Then the file's bytes come last, followed by the final boundary
        let head = "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n"
            + "\r\n"
            + "x"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\n"
            + "Content-Type: image/png\r\n"
            + "\r\n"
        let tail = "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(body == Data(head.utf8) + png + Data(tail.utf8))
        #expect(form.contentLength == Int64(body.count))
    }

    @Test func customHeadersAreOrderedDispositionTypeThenRest() throws {
        // Given headers in an arbitrary order
        var form = try MultipartFixtures.form()
        let headers: HTTPHeaders = [
            "X-Trace": "42",
            "Content-Type": "application/json",
            "Content-Disposition": "form-data; name=\"meta\"",
            "Content-Language": "en",
        ]
        try form.appendPart(headers: headers, body: Data("{}".utf8))

        // When its body is read
        let body = try body(of: form)

        // Then Content-Disposition comes first, Content-Type second, the rest as given
        let expected = "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"meta\"\r\n"
            + "Content-Type: application/json\r\n"
            + "X-Trace: 42\r\n"
            + "Content-Language: en\r\n"
            + "\r\n"
            + "{}"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(body == Data(expected.utf8))
    }

    @Test func emptyFormHasAnEmptyBody() throws {
        // Given a form with no parts (AFNetworking leaves such a request without a body)
        let form = try MultipartFixtures.form()
        let request = Request(url: URL(fileURLWithPath: "/"), method: .post, headers: ["Accept": "*/*"])

        // Then its body is empty, and applying it leaves a request unchanged
        #expect(form.isEmpty)
        #expect(form.contentLength == 0)
        #expect(try body(of: form).isEmpty)
        let applied = form.applied(to: request)
        #expect(applied.headers == request.headers)
        #expect(applied.body == nil)
    }

    @Test func appliedSetsContentTypeAndTheStreamBody() throws {
        // Given a form with one field
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")

        // When applied to a request
        let request = form.applied(to: Request(url: URL(fileURLWithPath: "/"), method: .post))

        // Then the request names the boundary and its body streams the same bytes, every time
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=Boundary+0123456789ABCDEF")
        let body = try #require(request.body)
        let first = try MultipartFixtures.readAll(body.makeStream(), chunk: 3)
        let second = try MultipartFixtures.readAll(body.makeStream(), chunk: 5)
        #expect(first == (try self.body(of: form)))
        #expect(second == first)
    }
}
