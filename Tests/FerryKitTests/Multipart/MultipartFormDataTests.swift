import Foundation
import Testing
@testable import FerryKit

@Suite("Multipart: form builder")
struct MultipartFormDataTests {
    /// The header block of the only part of `form`, as text.
    private func headerBlock(of form: MultipartFormData) throws -> String {
        let part = try #require(form.parts.first)
        return String(decoding: part.headerBlock, as: UTF8.self)
    }

    // MARK: Boundary

    @Test func randomBoundaryHasAFNetworkingsShape() throws {
        let first = MultipartFormData().boundary
        let second = MultipartFormData().boundary
        let shape = try Regex("^Boundary\\+[0-9A-F]{16}$")
        #expect(first.wholeMatch(of: shape) != nil)
        #expect(second.wholeMatch(of: shape) != nil)
        #expect(first != second)
    }

    @Test func boundaryFromAGeneratorIsReproducible() {
        // Given two generators in the same state
        var one = SeededGenerator(seed: 42)
        var two = SeededGenerator(seed: 42)
        var zero = ZeroGenerator()

        // Then they give the same boundary, and zeros keep their leading digits
        #expect(MultipartFormData.randomBoundary(using: &one) == MultipartFormData.randomBoundary(using: &two))
        #expect(MultipartFormData.randomBoundary(using: &zero) == "Boundary+0000000000000000")
    }

    @Test(arguments: ["", String(repeating: "a", count: 71), "has space", "semi;colon", "quo\"te", "caf\u{E9}", "line\r\nbreak", "slash/"])
    func invalidBoundaryIsRejected(boundary: String) {
        #expect(throws: FerryError.self) { _ = try MultipartFormData(boundary: boundary) }
    }

    @Test(arguments: ["B", String(repeating: "a", count: 70), "Boundary+0123456789ABCDEF", "a'b+c_d-e.f"])
    func validBoundaryIsKept(boundary: String) throws {
        #expect(try MultipartFormData(boundary: boundary).boundary == boundary)
    }

    // MARK: Names

    @Test func quotesAndLineBreaksInNamesAreEscaped() throws {
        // Given a field name and a file name with a quote, CR LF, a lone CR and a lone LF
        var form = try MultipartFixtures.form()
        try form.appendPart(fileData: Data("x".utf8), name: "a\"b\r\nc", fileName: "evil\".txt\r\nX-Injected: 1\rq\ns", mimeType: "text/plain")

        // Then each becomes %22, %0D or %0A and no header line is injected
        let expected = "Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"evil%22.txt%0D%0AX-Injected: 1%0Dq%0As\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
        #expect(try headerBlock(of: form) == expected)
    }

    @Test func fieldNameEscapingInAPlainField() throws {
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "\"\"\n")
        #expect(try headerBlock(of: form) == "Content-Disposition: form-data; name=\"%22%22%0A\"\r\n\r\n")
    }

    @Test func percentSignsAndBackslashesAreSentAsIs() throws {
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "50%\\off")
        #expect(try headerBlock(of: form) == "Content-Disposition: form-data; name=\"50%\\off\"\r\n\r\n")
    }

    @Test func nonASCIINamesAreSentAsUTF8() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a field name in Japanese and a file whose name has accents
        let url = try MultipartFixtures.makeFile("r\u{E9}sum\u{E9}.pdf", in: directory, contents: Data("%PDF".utf8))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "\u{540D}\u{524D}")

        // Then the header carries their UTF-8 bytes, and the type follows the extension
        let part = try #require(form.parts.first)
        let expected: [UInt8] = Array("Content-Disposition: form-data; name=\"".utf8)
            + [0xE5, 0x90, 0x8D, 0xE5, 0x89, 0x8D]
            + Array("\"; filename=\"r".utf8) + [0xC3, 0xA9] + Array("sum".utf8) + [0xC3, 0xA9]
            + Array(".pdf\"\r\nContent-Type: application/pdf\r\n\r\n".utf8)
        #expect(part.headerBlock == expected)
    }

    // MARK: Files checked when appended

    @Test func missingFileIsAnErrorWhenAppended() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        var form = try MultipartFixtures.form()
        let missing = directory.appendingPathComponent("missing.txt")
        #expect(throws: FerryError.input(.missingFile(missing.path))) { try form.appendPart(fileURL: missing, name: "f") }
        #expect(throws: FerryError.input(.missingFile(missing.path))) {
            try form.appendPart(headers: ["Content-Disposition": "form-data; name=\"f\""], fileURL: missing)
        }
        #expect(form.isEmpty)
    }

    @Test func directoryIsAnErrorWhenAppended() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        var form = try MultipartFixtures.form()
        #expect(throws: FerryError.input(.invalidOption("\(directory.path) is a directory, not a file"))) {
            try form.appendPart(fileURL: directory, name: "f")
        }
        #expect(form.isEmpty)
    }

    @Test func fifoIsRejectedWithoutBlocking() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a named pipe with no writer (opening it for reading would block)
        let fifo = directory.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)

        // Then appending it fails at once: its size is not known
        var form = try MultipartFixtures.form()
        #expect(throws: FerryError.input(.invalidOption("\(fifo.path) is not a regular file (its size is not known in advance)"))) {
            try form.appendPart(fileURL: fifo, name: "f")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root can read any file"))
    func unreadableFileIsAnErrorWhenAppended() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let url = try MultipartFixtures.makeFile("secret.txt", in: directory, contents: Data("x".utf8))
        #expect(chmod(url.path, 0) == 0)
        var form = try MultipartFixtures.form()
        #expect(throws: FerryError.file(.permissionDenied(url.path))) { try form.appendPart(fileURL: url, name: "f") }
    }

    @Test func nonFileURLIsRejected() throws {
        var form = try MultipartFixtures.form()
        let url = try #require(URL(string: "https://example.com/a.txt"))
        #expect(throws: FerryError.input(.invalidOption("https://example.com/a.txt is not a file URL"))) {
            try form.appendPart(fileURL: url, name: "f")
        }
    }

    @Test func fileTakesItsNameAndTypeFromThePath() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let known = try MultipartFixtures.makeFile("notes.md", in: directory, contents: Data("# hi".utf8))
        let unknown = try MultipartFixtures.makeFile("blob.qqqzz", in: directory, contents: Data([1, 2]))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: known, name: "a")
        try form.appendPart(fileURL: unknown, name: "b")

        #expect(form.parts[0].headers["Content-Disposition"] == "form-data; name=\"a\"; filename=\"notes.md\"")
        #expect(form.parts[0].headers["Content-Type"] == "text/markdown")
        #expect(form.parts[0].bodyLength == 4)
        #expect(form.parts[1].headers["Content-Type"] == "application/octet-stream")
        #expect(form.parts[1].bodyLength == 2)
    }

    @Test func explicitFileNameAndTypeWin() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let url = try MultipartFixtures.makeFile("local.bin", in: directory, contents: Data("abc".utf8))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "doc", fileName: "remote.txt", mimeType: "text/x-custom")

        #expect(try headerBlock(of: form) == "Content-Disposition: form-data; name=\"doc\"; filename=\"remote.txt\"\r\nContent-Type: text/x-custom\r\n\r\n")
    }

    // MARK: Header checks

    @Test func headerInjectionThroughTypesOrHeadersIsRejected() throws {
        var form = try MultipartFixtures.form()
        #expect(throws: FerryError.self) {
            try form.appendPart(fileData: Data(), name: "a", fileName: "a", mimeType: "text/plain\r\nX-Evil: 1")
        }
        #expect(throws: FerryError.self) {
            try form.appendPart(fileData: Data(), name: "a", fileName: "a", mimeType: "")
        }
        #expect(throws: FerryError.self) {
            try form.appendPart(headers: ["Content-Disposition": "form-data; name=\"a\"\nX: y"], body: Data())
        }
        #expect(throws: FerryError.self) {
            try form.appendPart(headers: ["Bad Name": "v"], body: Data())
        }
        #expect(throws: FerryError.self) {
            try form.appendPart(value: "v", name: "nul\u{0}name")
        }
        #expect(throws: FerryError.self) {
            try form.appendPart(headers: [:], length: -1) { DataBodyStream(Data()) }
        }
        #expect(form.isEmpty)
    }

    @Test func contentLengthIsTheSumOfTheParts() throws {
        // Given parts appended one by one
        var form = try MultipartFixtures.form()
        #expect(form.contentLength == 0)
        try form.appendPart(value: "a", name: "x")
        let one = form.contentLength
        try form.appendPart(value: "bb", name: "y")

        // Then the first part loses the final boundary and the second adds its own CRLF boundary
        // one: 29 + 44 + 1 + 33; two adds: 31 + 44 + 2 (the final boundary stays 33)
        #expect(one == 29 + 44 + 1 + 33)
        #expect(form.contentLength == one + 31 + 44 + 2)
    }

    @Test func formIsSendableAcrossTasks() async throws {
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")
        let captured = form
        let length = await Task.detached { () -> Int64 in
            (try? MultipartFixtures.readAll(captured.makeBodyStream(), chunk: 3).count).map(Int64.init) ?? -1
        }.value
        #expect(length == form.contentLength)
    }
}

/// `SeededGenerator` is a small deterministic generator (SplitMix64) for reproducible boundaries.
private struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `ZeroGenerator` always returns zero, to show that boundary digits are zero-padded.
private struct ZeroGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 { 0 }
}
