import FerryTestSupport
import Foundation
import Testing

/// A WebSocket client (Python's websocket-client, which aria2p installs) calls the daemon on
/// `/jsonrpc` and receives aria2's notifications in the order things happened.
@Suite(.serialized) struct WebSocketNotificationTests {
    /// `available` is true when `python3 -c 'import websocket'` works.
    static let available: Bool = {
        (try? run(executable: "python3", arguments: ["-c", "import websocket"], timeout: .seconds(30)))?.exitStatus == 0
    }()

    /// The client: it adds a fast and a slow download over the WebSocket, pauses the slow one,
    /// and prints every notification it received as `METHOD GID` lines, then `replies N`.
    static let script = #"""
    import json, sys, time
    import websocket

    port, secret, fast_url, slow_url, out = sys.argv[1:6]
    ws = websocket.create_connection("ws://127.0.0.1:%s/jsonrpc" % port, timeout=30)
    events, replies = [], {}

    def call(ident, method, params, token=secret):
        ws.send(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": ["token:" + token] + params}))

    def until(condition, seconds=60):
        deadline = time.time() + seconds
        while not condition():
            if time.time() > deadline:
                sys.exit("timed out; events %s replies %s" % (events, replies))
            message = json.loads(ws.recv())
            if "method" in message:
                events.append((message["method"], message["params"][0]["gid"]))
            else:
                replies[message["id"]] = message

    call(1, "aria2.addUri", [[fast_url], {"dir": out}])
    until(lambda: 1 in replies)
    fast = replies[1]["result"]
    until(lambda: ("aria2.onDownloadComplete", fast) in events)
    call(2, "aria2.addUri", [[slow_url], {"dir": out}])
    until(lambda: 2 in replies)
    slow = replies[2]["result"]
    until(lambda: ("aria2.onDownloadStart", slow) in events)
    call(3, "aria2.pause", [slow])
    until(lambda: ("aria2.onDownloadPause", slow) in events)
    call(4, "aria2.getVersion", [], token="wrong")
    until(lambda: 4 in replies)
    for method, gid in events:
        print(method, gid)
    print("replies", len(replies), replies[3].get("result") == slow, replies[4].get("error", {}).get("message"))
    """#

    @Test(.enabled(if: WebSocketNotificationTests.available, "websocket-client is not installed (make deps installs aria2p, which brings it)"))
    func notificationsArriveInOrderOverTheWebSocket() throws {
        // Given a daemon, nginx with a fast and a slow file.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try FileManager.default.createDirectory(at: www.file("slow"), withIntermediateDirectories: true)
        try Pattern.writeFile(at: www.file("f.bin"), count: 256 << 10, seed: 5)
        try Pattern.writeFile(at: www.file("slow/s.bin"), count: 4 << 20, seed: 6)
        let nginx = try NginxServer.start(root: www.url, extraConfig: "location /slow/ { limit_rate 512k; }")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url)
        defer { daemon.stop() }

        // When the WebSocket client adds both and pauses the slow one...
        let client = try run(executable: "python3", arguments: [
            "-c", Self.script, String(daemon.port), FerryDaemon.secret,
            nginx.url("/f.bin").absoluteString, nginx.url("/slow/s.bin").absoluteString, state.file("out").path,
        ], timeout: .seconds(120))

        // Then it got each answer and the notifications in order: the fast one started and
        // completed, then the slow one started and paused.
        #expect(client.exitStatus == 0, "\(client.stdout)\n\(client.stderr)")
        let lines = client.stdout.split(separator: "\n").map(String.init)
        let events = lines.filter { $0.hasPrefix("aria2.on") }.map { $0.split(separator: " ").map(String.init) }
        #expect(events.map { $0[0] } == ["aria2.onDownloadStart", "aria2.onDownloadComplete", "aria2.onDownloadStart", "aria2.onDownloadPause"], "\(lines)")
        #expect(events.count == 4 && events[0][1] == events[1][1] && events[2][1] == events[3][1] && events[0][1] != events[2][1], "\(lines)")
        #expect(lines.last == "replies 4 True Unauthorized", "\(lines)")
        #expect(try SHA256Hex.of(file: state.file("out/f.bin")) == Pattern.sha256Hex(count: 256 << 10, seed: 5))
    }

    /// The client for waiting tasks: with one slow download running (one at a time), it adds
    /// three more (waiting, some handed to the engine ahead of need) and one paused, pauses
    /// the three, removes all four, waits a moment for stray notifications and prints every
    /// notification as `METHOD GID`, then the GIDs of the waiting ones.
    static let waitingScript = #"""
    import json, sys, time
    import websocket

    port, secret, url, out = sys.argv[1:5]
    ws = websocket.create_connection("ws://127.0.0.1:%s/jsonrpc" % port, timeout=30)
    events, replies = [], {}

    def call(ident, method, params):
        ws.send(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": ["token:" + secret] + params}))

    def receive():
        message = json.loads(ws.recv())
        if "method" in message:
            events.append((message["method"], message["params"][0]["gid"]))
        else:
            replies[message["id"]] = message

    def until(condition, seconds=60):
        deadline = time.time() + seconds
        while not condition():
            if time.time() > deadline:
                sys.exit("timed out; events %s replies %s" % (events, replies))
            receive()

    call(1, "aria2.addUri", [[url], {"dir": out, "out": "running.bin"}])
    until(lambda: 1 in replies and ("aria2.onDownloadStart", replies[1]["result"]) in events)
    for ident in (2, 3, 4):
        call(ident, "aria2.addUri", [[url], {"dir": out, "out": "w%d.bin" % ident}])
    call(5, "aria2.addUri", [[url], {"dir": out, "out": "p.bin", "pause": "true"}])
    until(lambda: all(ident in replies for ident in (2, 3, 4, 5)))
    waiting = [replies[ident]["result"] for ident in (2, 3, 4)]
    paused = replies[5]["result"]
    for index, gid in enumerate(waiting):
        call(10 + index, "aria2.pause", [gid])
    until(lambda: all(("aria2.onDownloadPause", gid) in events for gid in waiting))
    for index, gid in enumerate(waiting + [paused]):
        call(20 + index, "aria2.remove", [gid])
    until(lambda: all(("aria2.onDownloadStop", gid) in events for gid in waiting + [paused]))
    ws.settimeout(1.5)
    try:
        while True:
            receive()
    except websocket.WebSocketTimeoutException:
        pass
    for method, gid in events:
        print(method, gid)
    print("waiting", " ".join(waiting + [paused]))
    print("answered", all("result" in replies[ident] for ident in list(range(10, 13)) + list(range(20, 24))))
    """#

    @Test(.enabled(if: WebSocketNotificationTests.available, "websocket-client is not installed (make deps installs aria2p, which brings it)"))
    func waitingTasksPausedOrRemovedAreNotifiedOnce() throws {
        // Given a daemon running one transfer at a time and a slow file.
        let www = try TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove(); state.remove() }
        try Pattern.writeFile(at: www.file("s.bin"), count: 4 << 20, seed: 6)
        let nginx = try NginxServer.start(root: www.url, limitRate: "256k")
        defer { nginx.stop() }
        let daemon = try FerryDaemon.start(stateDirectory: state.url, arguments: ["--max-concurrent", "1"])
        defer { daemon.stop() }

        // When the client pauses and removes tasks that never ran...
        let client = try run(executable: "python3", arguments: [
            "-c", Self.waitingScript, String(daemon.port), FerryDaemon.secret, nginx.url("/s.bin").absoluteString, state.file("out").path,
        ], timeout: .seconds(120))

        // Then each was notified once as paused and once as stopped, and none as started.
        #expect(client.exitStatus == 0, "\(client.stdout)\n\(client.stderr)")
        let lines = client.stdout.split(separator: "\n").map(String.init)
        let waiting = try #require(lines.first { $0.hasPrefix("waiting ") }).split(separator: " ").dropFirst().map(String.init)
        #expect(waiting.count == 4, "\(lines)")
        let events = lines.filter { $0.hasPrefix("aria2.on") }
        for (index, gid) in waiting.enumerated() {
            let about = events.filter { $0.hasSuffix(" " + gid) }
            let expected = index < 3 ? ["aria2.onDownloadPause \(gid)", "aria2.onDownloadStop \(gid)"] : ["aria2.onDownloadStop \(gid)"]
            #expect(about == expected, "\(lines)")
        }
        #expect(lines.last == "answered True", "\(lines)")
    }
}
