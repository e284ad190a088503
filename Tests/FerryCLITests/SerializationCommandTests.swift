import FerryTestSupport
import Foundation
import Testing

/// `--query`, `--form` and `--json-body` end to end: the exact bytes that reach the server,
/// and replies shown through the compound response serializer.
@Suite(.serialized) struct SerializationCommandTests {
    private func ferry(_ arguments: [String]) throws -> ProcessResult {
        try runFerry(arguments, timeout: .seconds(60))
    }

    private func echo(_ result: ProcessResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]) ?? [:]
    }

    @Test func queryParametersUseAFNetworkingEncoding() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let out = try TemporaryDirectory()
        defer { out.remove() }

        let result = try ferry(["get", "--retries", "0", "-d", out.path, "-o", "reply.json", server.baseURL.absoluteString + "/echo?x=1",
                                "--query", "foo[bar][baz]=1", "--query", "name=français", "--query", "p=%25", "--query", "s=:#[]@!$&'()*+,;=?/"])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let reply = try JSONSerialization.jsonObject(with: Data(contentsOf: out.file("reply.json"))) as? [String: Any]
        #expect(reply?["query"] as? String == "x=1&foo%5Bbar%5D%5Bbaz%5D=1&name=fran%C3%A7ais&p=%2525&s=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")
    }

    @Test func formBodyIsURLEncodedWithSortedNestedKeys() throws {
        let server = try FaultServer.start()
        defer { server.stop() }

        let result = try ferry(["put", server.url("/echo").absoluteString, "--form", "user[name]=José", "--form", "tags[]=a", "--form", "tags[]=b", "--form", "a=1"])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        let reply = echo(result)
        #expect(reply["method"] as? String == "POST")
        #expect(reply["body"] as? String == "a=1&tags%5B%5D=a&tags%5B%5D=b&user%5Bname%5D=Jos%C3%A9")
        let headers = (reply["headers"] as? [[String]] ?? []).reduce(into: [String: String]()) { $0[$1[0].lowercased()] = $1[1] }
        #expect(headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(headers["accept-language"] != nil)
    }

    @Test func jsonBodyIsCheckedThenSent() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data(#"{"b": [1, 2.5, null], "a": {"x": true}}"#.utf8).write(to: dir.file("ok.json"))
        try Data("{bad".utf8).write(to: dir.file("bad.json"))

        let result = try ferry(["put", server.url("/echo").absoluteString, "--json-body", dir.file("ok.json").path])
        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(echo(result)["body"] as? String == #"{"a":{"x":true},"b":[1,2.5,null]}"#)

        let bad = try ferry(["put", server.url("/echo").absoluteString, "--json-body", dir.file("bad.json").path])
        #expect(bad.exitStatus == 2)
        #expect(bad.stderr.contains("invalid JSON"))
    }

    @Test func repliesAreShownByType() throws {
        let server = try FaultServer.start()
        defer { server.stop() }
        func put(_ query: String) throws -> ProcessResult {
            try ferry(["put", "--pretty", server.baseURL.absoluteString + "/status/200?" + query, "--form", "a=1"])
        }

        // With --pretty, JSON is pretty-printed with sorted keys.
        let json = try put("ctype=application/json&body=%7B%22b%22%3A1%2C%22a%22%3A%5B%5D%7D")
        #expect(json.exitStatus == 0)
        #expect(json.stdout == "{\n  \"a\" : [\n\n  ],\n  \"b\" : 1\n}\n" || json.stdout.contains("\"a\""))
        #expect(json.stdout.contains("\n"))
        // XML and text are shown as text.
        let xml = try put("ctype=text/xml&body=%3Croot%3E%3Ca%2F%3E%3C%2Froot%3E")
        #expect(xml.stdout == "<root><a/></root>\n")
        let text = try put("ctype=text/plain&body=hello")
        #expect(text.stdout == "hello\n")
        // A failure shows the status and the server's message, exit 1.
        let failed = try ferry(["put", server.baseURL.absoluteString + "/status/422?ctype=text/plain&body=name+is+taken", "--form", "a=1"])
        #expect(failed.exitStatus == 1)
        #expect(failed.stderr.contains("Request failed: unprocessable entity (422)") || failed.stderr.contains("(422)"))
        #expect(failed.stderr.contains("name is taken"))
    }

    @Test func malformedParametersAreUsageErrors() throws {
        for arguments in [["get", "http://127.0.0.1:9/", "--query", "novalue"], ["put", "http://127.0.0.1:9/", "--form", "a[b=1"], ["put", "http://127.0.0.1:9/", "--form", "a=1", "-F", "b=2"]] {
            let result = try ferry(arguments)
            #expect(result.exitStatus == 2, "\(arguments): \(result.stderr)")
        }
    }
}
