import Foundation
import Testing
@testable import FerryKit

@Suite("Multipart: writing the body to a file")
struct MultipartWriteBodyTests {
    @Test func writtenFileHoldsExactlyTheStreamedBytes() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a form with a field and a file larger than the write buffer, throttled
        let content = MultipartFixtures.patternBytes(count: MultipartFormData.writeBufferSize * 2 + 17)
        let file = try MultipartFixtures.makeFile("content.bin", in: directory, contents: content)
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "value", name: "field")
        try form.appendPart(fileURL: file, name: "file")
        form.throttle(bytesPerPacket: 1, delay: .seconds(60))

        // When the body is written to a file
        let output = directory.appendingPathComponent("body.multipart")
        let written = try form.writeBody(to: output)

        // Then it holds the streamed bytes (the throttle is not applied), readable by the owner only
        let streamed = try MultipartFixtures.readAll(MultipartBodyStream(parts: form.parts, boundary: form.boundary), chunk: 65_536)
        #expect(try Data(contentsOf: output) == streamed)
        #expect(written == form.contentLength)
        #expect(Int64(streamed.count) == written)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func existingFileIsNeverOverwritten() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a file already at the destination
        let output = try MultipartFixtures.makeFile("body.multipart", in: directory, contents: Data("keep me".utf8))
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")

        // Then writing fails and the file is untouched
        #expect(throws: FerryError.file(.alreadyExists(output.path))) { try form.writeBody(to: output) }
        #expect(try Data(contentsOf: output) == Data("keep me".utf8))
    }

    @Test func symbolicLinkIsNeverFollowed() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a planted link to another file, and a dangling link
        let target = try MultipartFixtures.makeFile("target.txt", in: directory, contents: Data("precious".utf8))
        let link = directory.appendingPathComponent("link")
        let dangling = directory.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: directory.appendingPathComponent("nowhere"))
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")

        // Then neither is written through
        #expect(throws: FerryError.file(.alreadyExists(link.path))) { try form.writeBody(to: link) }
        #expect(throws: FerryError.file(.alreadyExists(dangling.path))) { try form.writeBody(to: dangling) }
        #expect(try Data(contentsOf: target) == Data("precious".utf8))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("nowhere").path))
    }

    @Test func failedWriteLeavesNoPartialFile() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a stream part that fails half-way
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")
        try form.appendPart(headers: ["Content-Disposition": "form-data; name=\"s\""], length: 10) {
            MultipartFixtures.FixedStream(Data("short".utf8), declaredLength: 10)
        }

        // When the body is written
        let output = directory.appendingPathComponent("body.multipart")
        #expect(throws: FerryError.self) { try form.writeBody(to: output) }

        // Then no file is left behind
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func emptyFormWritesAnEmptyFile() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let output = directory.appendingPathComponent("empty.multipart")
        #expect(try MultipartFixtures.form().writeBody(to: output) == 0)
        #expect(try Data(contentsOf: output).isEmpty)
    }
}
