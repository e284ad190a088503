import Foundation
import Testing
@testable import FerryKit

/// Parses a produced body with an independent parser: Python's `email` package (policy HTTP).
@Suite("Multipart: independent parser")
struct MultipartCrossCheckTests {
    /// The `python3` on `PATH`, `nil` when there is none (the test is then skipped).
    static let python: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Reads the body at argv[1] with the content type argv[2]; prints each part and the SHA-256 of the files argv[3...].
    static let script = #"""
        import email.policy, hashlib, json, sys
        from email.parser import BytesParser
        body_path, content_type, *file_paths = sys.argv[1:]
        with open(body_path, "rb") as f:
            body = f.read()
        message = BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode("ascii") + b"\r\n\r\n" + body)
        parts = []
        for part in message.iter_parts():
            payload = part.get_payload(decode=True)
            parts.append({
                "name": part.get_param("name", header="content-disposition"),
                "fileName": part.get_filename(),
                "contentType": part.get_content_type() if "content-type" in part else None,
                "sha256": hashlib.sha256(payload).hexdigest(),
                "text": None if part.get_filename() else payload.decode("utf-8"),
                "defects": [type(d).__name__ for d in part.defects],
            })
        files = {}
        for path in file_paths:
            with open(path, "rb") as f:
                files[path] = hashlib.sha256(f.read()).hexdigest()
        print(json.dumps({
            "multipart": message.is_multipart(),
            "boundary": message.get_boundary(),
            "defects": [type(d).__name__ for d in message.defects],
            "parts": parts,
            "files": files,
        }))
        """#

    struct Report: Decodable {
        struct Part: Decodable, Equatable {
            let name: String?
            let fileName: String?
            let contentType: String?
            let sha256: String
            let text: String?
            let defects: [String]
        }

        let multipart: Bool
        let boundary: String?
        let defects: [String]
        let parts: [Part]
        let files: [String: String]
    }

    @Test(.enabled(if: python != nil, "python3 is not installed"))
    func pythonEmailParserReadsTheBody() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given fields (one with a quote in its name, one non-ASCII value), a binary file and an empty file
        let binary = try MultipartFixtures.makeFile("data.bin", in: directory, contents: MultipartFixtures.patternBytes(count: 300_000, seed: 3))
        let empty = try MultipartFixtures.makeFile("empty.txt", in: directory, contents: Data())
        var form = MultipartFormData()
        try form.appendPart(value: "plain value", name: "plain")
        try form.appendPart(value: "gr\u{FC}\u{DF}e \u{2603}\r\nline two", name: "say \"hi\"")
        try form.appendPart(fileURL: binary, name: "upload")
        try form.appendPart(fileURL: empty, name: "nothing", fileName: "empty.txt", mimeType: "text/plain")
        let bodyURL = directory.appendingPathComponent("body.multipart")
        try form.writeBody(to: bodyURL)

        // When Python parses it
        let report = try runPython(arguments: [bodyURL.path, form.contentType, binary.path, empty.path])

        // Then it finds the same parts, values and file contents, with no defects
        #expect(report.multipart)
        #expect(report.boundary == form.boundary)
        #expect(report.defects.isEmpty)
        #expect(report.parts.count == 4)
        guard report.parts.count == 4 else { return }
        #expect(report.parts[0].name == "plain")
        #expect(report.parts[0].text == "plain value")
        #expect(report.parts[0].contentType == nil)
        #expect(report.parts[1].name == "say %22hi%22")
        #expect(report.parts[1].text == "gr\u{FC}\u{DF}e \u{2603}\r\nline two")
        #expect(report.parts[2].name == "upload")
        #expect(report.parts[2].fileName == "data.bin")
        #expect(report.parts[2].contentType == "application/octet-stream")
        #expect(report.parts[2].sha256 == report.files[binary.path])
        #expect(report.parts[3].fileName == "empty.txt")
        #expect(report.parts[3].contentType == "text/plain")
        #expect(report.parts[3].sha256 == report.files[empty.path])
        #expect(report.parts.allSatisfy { $0.defects.isEmpty })
    }

    private func runPython(arguments: [String]) throws -> Report {
        let python = try #require(Self.python)
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 failed: \(String(decoding: messages, as: UTF8.self))")
        return try JSONDecoder().decode(Report.self, from: data)
    }
}
