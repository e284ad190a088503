import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// Each response serializer against real replies from the fault server and nginx.
@Suite(.serialized) struct ResponseSerializerIntegrationTests {
    private func get(_ url: URL) async throws -> (HTTPResponse, Data) {
        let session = SessionManager()
        defer { session.invalidate() }
        let task = session.dataTask(with: Request(url: url))
        task.resume()
        let result = try await task.result
        return (result.response, result.data ?? Data())
    }

    @Test func jsonRepliesAreParsedAndWrongTypesRejected() async throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        let (response, data) = try await get(server.url("/status/200", query: ["ctype": "application/json; charset=utf-8", "body": #"{"b":null,"a":[1,{"c":null}]}"#]))
        let value = try JSONResponseSerializer(removesKeysWithNullValues: true).serialize(response: response, data: data)
        #expect(value == ["a": [1, [:]]])

        let (htmlResponse, htmlData) = try await get(server.url("/status/200", query: ["ctype": "text/html", "body": "<p>{}</p>"]))
        #expect(throws: FerryError.validation(.unacceptableContentType("text/html", acceptable: ["application/json", "text/javascript", "text/json"], url: URLMasking.mask(htmlResponse.url)))) {
            try JSONResponseSerializer().serialize(response: htmlResponse, data: htmlData)
        }
    }

    @Test func errorStatusesCarryTheServersBody() async throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        for status in [404, 500] {
            let (response, data) = try await get(server.url("/status/\(status)", query: ["ctype": "text/plain", "body": "details \(status)"]))
            do {
                _ = try HTTPResponseSerializer().serialize(response: response, data: data)
                Issue.record("status \(status) was accepted")
            } catch {
                guard case .validation(.unacceptableStatus(status, _, _, let body?)) = error else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(String(decoding: body, as: UTF8.self) == "details \(status)")
                #expect(error.validationMessage == "Request failed: \(HTTPStatus.localizedString(forStatusCode: status)) (\(status))")
            }
        }
    }

    @Test func xmlAndPropertyListReplies() async throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        let (xmlResponse, xmlData) = try await get(server.url("/status/200", query: ["ctype": "application/xml", "body": "<a><b>x</b></a>"]))
        let tree = try XMLParserResponseSerializer().serialize(response: xmlResponse, data: xmlData)
        #expect(tree.root.name == "a")

        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>k</key><string>v</string></dict></plist>"#
        let (plistResponse, plistData) = try await get(server.url("/status/200", query: ["ctype": "application/x-plist", "body": plist]))
        #expect(try PropertyListResponseSerializer().serialize(response: plistResponse, data: plistData) == ["k": "v"])
    }

    @Test func imagesAreMeasuredAndTheCompoundPicksTheFirstThatFits() async throws {
        // Given nginx serving a PNG header for a 640x480 image.
        let www = try TemporaryDirectory(worldReadable: true)
        defer { www.remove() }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        png.append(contentsOf: Array("IHDR".utf8))
        png.append(contentsOf: [0, 0, 0x02, 0x80, 0, 0, 0x01, 0xE0, 8, 6, 0, 0, 0, 0, 0, 0, 0])
        try png.write(to: www.file("pic.png"))
        chmod(www.file("pic.png").path, 0o644)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "types { image/png png; }")
        defer { nginx.stop() }

        let (response, data) = try await get(nginx.url("/pic.png"))
        let compound = CompoundResponseSerializer<String>([
            JSONResponseSerializer().map { _ in "json" },
            ImageResponseSerializer().map { $0.description },
            HTTPResponseSerializer().map { _ in "raw" },
        ])
        #expect(try compound.serialize(response: response, data: data) == "PNG 640x480")
    }
}
