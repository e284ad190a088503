import FerryTestSupport
import Foundation
import Testing

/// `ferry put -F` as a user runs it; the fault server parses bodies with Python's `email` package.
@Suite(.serialized) struct PutCommandTests {
    private func ferry(_ arguments: [String]) throws -> ProcessResult {
        try run(executable: try ferryExecutableURL().path, arguments: arguments, timeout: .seconds(120))
    }

    private func reply(_ result: ProcessResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]) ?? [:]
    }

    @Test func multipartFieldsAndFilesArriveIntact() throws {
        // Given text fields with quotes and non-ASCII, an empty file, a file whose content looks
        // like a boundary, and a 6 MiB file.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let tricky = Data("line\r\n--Boundary+0000000000000000\r\n--Boundary+0000000000000000--\r\n".utf8)
        try tricky.write(to: dir.file("tricky.txt"))
        try Data().write(to: dir.file("empty.dat"))
        try Pattern.writeFile(at: dir.file("big.bin"), count: 6 << 20, seed: 11)
        let server = try FaultServer.start()
        defer { server.stop() }

        // When they are sent with -F.
        let result = try ferry([
            "put", server.url("/multipart").absoluteString,
            "-F", "title=Hello \"quoted\" 名前",
            "-F", "doc=@\(dir.file("tricky.txt").path);type=text/plain;filename=a\"b.txt",
            "-F", "empty=@\(dir.file("empty.dat").path)",
            "-F", "big=@\(dir.file("big.bin").path)",
            "-F", "from-file=<\(dir.file("tricky.txt").path)",
        ])

        // Then an independent parser sees every field and every file byte-exact.
        #expect(result.exitStatus == 0, "\(result.stderr)")
        let body = reply(result)
        let fields = body["fields"] as? [String: String] ?? [:]
        #expect(fields["title"] == "Hello \"quoted\" 名前")
        #expect(fields["from-file"] == String(decoding: tricky, as: UTF8.self))
        let files = (body["files"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) { $0[$1["name"] as? String ?? ""] = $1 }
        #expect(files["doc"]?["filename"] as? String == "a%22b.txt")
        #expect(files["doc"]?["content_type"] as? String == "text/plain")
        #expect(files["doc"]?["sha256"] as? String == SHA256Hex.of(data: tricky))
        #expect(files["empty"]?["length"] as? Int == 0)
        #expect(files["big"]?["sha256"] as? String == Pattern.sha256Hex(count: 6 << 20, seed: 11))
        #expect(body["parts"] as? Int == 5)
    }

    @Test func aRedirect307ReplaysTheWholeBody() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Pattern.writeFile(at: dir.file("big.bin"), count: 3 << 20, seed: 12)
        let server = try FaultServer.start()
        defer { server.stop() }

        let result = try ferry(["put", server.baseURL.absoluteString + "/redirect/1?to=/multipart&code=307", "-F", "big=@\(dir.file("big.bin").path)"])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let files = reply(result)["files"] as? [[String: Any]] ?? []
        #expect(files.first?["sha256"] as? String == Pattern.sha256Hex(count: 3 << 20, seed: 12))
    }

    @Test func anEarly413StopsTheUploadAndIsReported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Pattern.writeFile(at: dir.file("big.bin"), count: 32 << 20)
        let server = try FaultServer.start()
        defer { server.stop() }

        let result = try ferry(["put", server.url("/reject/413").absoluteString, "-F", "big=@\(dir.file("big.bin").path)"])

        #expect(result.exitStatus == 1)
        #expect(result.stderr.contains("(413)"))
    }

    @Test func aRejectedUploadShowsTheServersPageAsLines() throws {
        // Given nginx, which refuses a PUT with an HTML page whose lines end in CRLF
        let www = try TemporaryDirectory(worldReadable: true)
        let dir = try TemporaryDirectory()
        defer { www.remove(); dir.remove() }
        try Pattern.writeFile(at: dir.file("body.bin"), count: 1_000)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }

        // When a file is put there
        let result = try ferry(["put", "-T", dir.file("body.bin").path, nginx.url("/up").absoluteString])

        // Then the status and the page's lines are shown, with no escaped carriage return
        #expect(result.exitStatus == 1)
        #expect(result.stderr.contains("(405)"), "\(result.stderr)")
        #expect(result.stderr.contains("the server said: <html>\n<head><title>405 Not Allowed</title></head>\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("\\u{d}"), "\(result.stderr)")
    }

    @Test func missingFilesAndBadFieldsFailBeforeSending() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try FaultServer.start()
        defer { server.stop() }

        let missing = try ferry(["put", server.url("/multipart").absoluteString, "-F", "a=1", "-F", "f=@\(dir.file("absent.bin").path)"])
        #expect(missing.exitStatus == 2)
        #expect(missing.stderr.contains("absent.bin"))
        let bad = try ferry(["put", server.url("/multipart").absoluteString, "-F", "no-equals-sign"])
        #expect(bad.exitStatus == 2)
        let both = try ferry(["put", server.url("/multipart").absoluteString, "-F", "a=1", "-T", "/etc/hostname"])
        #expect(both.exitStatus == 2)
        // Nothing reached the server.
        let log = try Loopback.request(port: server.port, target: "/_log?prefix=/multipart")
        #expect(String(decoding: log.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func saveBodyWritesExactlyWhatWouldBeSent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Pattern.writeFile(at: dir.file("f.bin"), count: 100_000, seed: 13)

        let result = try ferry(["put", "http://127.0.0.1:9/never", "-F", "a=1", "-F", "f=@\(dir.file("f.bin").path)", "--save-body", dir.file("body").path])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let body = try Data(contentsOf: dir.file("body"))
        #expect(result.stderr.contains("wrote \(body.count) bytes"))
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        #expect(text.hasPrefix("--Boundary+"))
        #expect(text.contains("Content-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"))
        // Never replaces an existing file.
        let again = try ferry(["put", "http://127.0.0.1:9/never", "-F", "a=1", "--save-body", dir.file("body").path])
        #expect(again.exitStatus != 0)
        #expect(try Data(contentsOf: dir.file("body")) == body)
    }
}
