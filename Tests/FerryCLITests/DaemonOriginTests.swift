import FerryTestSupport
import Foundation
import Testing

/// Issue 43's RPC door, against a real `ferry daemon --rpc-port`: a web page of another origin
/// and a request for another host name (DNS rebinding) are refused before any method runs,
/// unless `--rpc-allow-origin-all` or `--rpc-listen-all` says otherwise; wrong tokens sent in
/// parallel over several connections take turns. Requests are written byte for byte, so the
/// `Host` and `Origin` are exactly what a browser or an attacker would send.
@Suite(.serialized) struct DaemonOriginTests {
    @Test func foreignOriginsAndHostsAreRefusedBeforeAnyMethodRuns() throws {
        // Given a daemon with a secret on TCP, and nothing queued.
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }
        let own = "127.0.0.1:\(daemon.port)"

        // When a page on evil.example posts a text/plain addUri with the right token (as a
        // browser sends it: no preflight, its Origin added), then it is refused with 403...
        let evil = try RawHTTP.exchange(port: daemon.port, RawHTTP.post(host: own, body: Self.addUri("evil.bin"), origin: "http://evil.example", contentType: "text/plain"))
        #expect(evil.status == 403, "\(evil.text)")
        #expect(evil.text.contains("--rpc-allow-origin-all"), "\(evil.text)")

        // ...as is a request naming another host (a rebound DNS name), and one with no Host.
        let rebound = try RawHTTP.exchange(port: daemon.port, RawHTTP.post(host: "evil.example:\(daemon.port)", body: Self.addUri("rebound.bin")))
        #expect(rebound.status == 403, "\(rebound.text)")
        #expect(rebound.text.contains("--rpc-listen-all"), "\(rebound.text)")
        let hostless = try RawHTTP.exchange(port: daemon.port, RawHTTP.post(host: nil, body: Self.addUri("hostless.bin")))
        #expect(hostless.status == 403, "\(hostless.text)")

        // And a plain client (no Origin, Host 127.0.0.1:PORT), and one naming the daemon's own
        // origin, are answered.
        let plain = try RawHTTP.exchange(port: daemon.port, RawHTTP.post(host: own, body: Self.addUri("plain.bin")))
        #expect(plain.status == 200 && plain.text.contains("\"result\""), "\(plain.text)")
        let sameOrigin = try RawHTTP.exchange(port: daemon.port, RawHTTP.post(host: "localhost:\(daemon.port)", body: Self.addUri("own.bin"), origin: "http://localhost:\(daemon.port)"))
        #expect(sameOrigin.status == 200 && sameOrigin.text.contains("\"result\""), "\(sameOrigin.text)")

        // Then no refused call ran: ferry list shows only the two answered ones.
        let listed = try runFerry(["list"], stateDirectory: state.url, timeout: .seconds(30))
        #expect(listed.exitStatus == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("plain.bin") && listed.stdout.contains("own.bin"), "\(listed.stdout)")
        for refused in ["evil.bin", "rebound.bin", "hostless.bin"] {
            #expect(!listed.stdout.contains(refused), "\(listed.stdout)")
        }

        // And a WebSocket upgrade from the foreign page is refused (the WebSocket library
        // answers a refused upgrade 400), one from the daemon's own origin switches protocols.
        let evilSocket = try RawHTTP.exchange(port: daemon.port, RawHTTP.upgrade(host: own, origin: "http://evil.example"))
        #expect(evilSocket.status == 400, "\(evilSocket.text)")
        let ownSocket = try RawHTTP.exchange(port: daemon.port, RawHTTP.upgrade(host: own, origin: "http://\(own)"))
        #expect(ownSocket.status == 101, "\(ownSocket.text)")
    }

    @Test func eachFlagAllowsWhatItNames() throws {
        let origins = try TemporaryDirectory()
        let hosts = try TemporaryDirectory()
        defer { origins.remove(); hosts.remove() }

        // Given a daemon with --rpc-allow-origin-all: the foreign page's call runs, a foreign
        // Host is still refused.
        let allowing = try FerryDaemon.start(stateDirectory: origins.url, arguments: ["--rpc-allow-origin-all"])
        defer { allowing.stop() }
        let page = try RawHTTP.exchange(port: allowing.port, RawHTTP.post(host: "127.0.0.1:\(allowing.port)", body: Self.addUri("page.bin"), origin: "http://evil.example", contentType: "text/plain"))
        #expect(page.status == 200 && page.text.contains("\"result\""), "\(page.text)")
        let pageSocket = try RawHTTP.exchange(port: allowing.port, RawHTTP.upgrade(host: "127.0.0.1:\(allowing.port)", origin: "http://evil.example"))
        #expect(pageSocket.status == 101, "\(pageSocket.text)")
        let stillRebound = try RawHTTP.exchange(port: allowing.port, RawHTTP.post(host: "evil.example", body: Self.addUri("rebound.bin")))
        #expect(stillRebound.status == 403, "\(stillRebound.text)")

        // Given a daemon with --rpc-listen-all (reached here on 127.0.0.1 only): a request naming
        // another host runs, a foreign Origin is still refused.
        let listening = try FerryDaemon.start(stateDirectory: hosts.url, arguments: ["--rpc-listen-all"])
        defer { listening.stop() }
        let named = try RawHTTP.exchange(port: listening.port, RawHTTP.post(host: "nas.example:\(listening.port)", body: Self.addUri("named.bin")))
        #expect(named.status == 200 && named.text.contains("\"result\""), "\(named.text)")
        let stillForeign = try RawHTTP.exchange(port: listening.port, RawHTTP.post(host: "nas.example:\(listening.port)", body: Self.addUri("page.bin"), origin: "http://evil.example"))
        #expect(stillForeign.status == 403, "\(stillForeign.text)")

        // Then each ran exactly the calls it answered.
        let first = try runFerry(["list"], stateDirectory: origins.url, timeout: .seconds(30)).stdout
        #expect(first.contains("page.bin") && !first.contains("rebound.bin"), "\(first)")
        let second = try runFerry(["list"], stateDirectory: hosts.url, timeout: .seconds(30)).stdout
        #expect(second.contains("named.bin") && !second.contains("page.bin"), "\(second)")
    }

    @Test func wrongTokensOnParallelConnectionsTakeTurns() throws {
        // Given a daemon (a failure costs 1 s, then 2 s: a second in a row costs more).
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }

        // When two wrong tokens are sent on two connections before either answer is read.
        let clock = ContinuousClock()
        let started = clock.now
        let guesses = try (0..<2).map { index in
            try RawHTTP.send(port: daemon.port, RawHTTP.post(host: "127.0.0.1:\(daemon.port)", body: Self.version(token: "guess-\(index)")))
        }
        let answers = try guesses.map { try RawHTTP.receive($0) }

        // Then both are refused, and the last answer came at least one delay per guess after
        // they were sent (a delay per connection would answer both after one).
        #expect(answers.allSatisfy { $0.text.contains("Unauthorized") }, "\(answers.map(\.text))")
        #expect(clock.now - started >= .seconds(2))

        // And the right token is answered afterwards.
        let right = try daemon.call("aria2.getVersion")
        #expect(right["result"] != nil, "\(right)")
    }

    static func addUri(_ name: String) -> Data {
        let call: [String: Any] = ["jsonrpc": "2.0", "id": "page", "method": "aria2.addUri",
                                   "params": ["token:\(FerryDaemon.secret)", ["http://127.0.0.1:9/\(name)"], ["pause": "true"]]]
        return (try? JSONSerialization.data(withJSONObject: call)) ?? Data()
    }

    static func version(token: String) -> Data {
        Data(#"{"jsonrpc":"2.0","id":"v","method":"aria2.getVersion","params":["token:\#(token)"]}"#.utf8)
    }
}

/// `RawHTTP` writes HTTP/1.1 requests to 127.0.0.1 exactly as given (the test's own `Host`, or
/// none) and reads the status line, headers and body of the answer.
enum RawHTTP {
    struct Reply {
        let status: Int
        let text: String
    }

    static func post(host: String?, body: Data, origin: String? = nil, contentType: String = "application/json") -> Data {
        var head = "POST /jsonrpc HTTP/1.1\r\n"
        if let host { head += "Host: \(host)\r\n" }
        if let origin { head += "Origin: \(origin)\r\n" }
        head += "Connection: close\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + body
    }

    static func upgrade(host: String, origin: String) -> Data {
        Data(("GET /jsonrpc HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: \(origin)\r\n\r\n").utf8)
    }

    static func exchange(port: Int, _ request: Data) throws -> Reply {
        try receive(send(port: port, request))
    }

    /// `send(port:_:)` connects, writes `request` and returns the open socket.
    static func send(port: Int, _ request: Data) throws -> Int32 {
        guard let fd = DaemonDoorTests.connect(port: port) else { throw TestSupportError("cannot connect to 127.0.0.1:\(port)") }
        var time = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else {
            close(fd)
            throw TestSupportError("short write to 127.0.0.1:\(port)")
        }
        return fd
    }

    /// `receive(_:)` reads the answer on `fd` and closes it: the head, then the body's
    /// Content-Length (a 101 has none: the head alone), else to the end; at most 30 s a read.
    static func receive(_ fd: Int32) throws -> Reply {
        defer { close(fd) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !isComplete(received) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw TestSupportError("no answer (\(received.count) bytes read)")
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        let words = text.prefix(while: { $0 != "\r" }).split(separator: " ")
        guard words.count >= 2, let status = Int(words[1]) else { throw TestSupportError("not an HTTP answer: \(text)") }
        return Reply(status: status, text: text)
    }

    private static func isComplete(_ data: Data) -> Bool {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
        if head.hasPrefix("http/1.1 101") { return true }
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return false }
        return data.count - end.upperBound >= length
    }
}
