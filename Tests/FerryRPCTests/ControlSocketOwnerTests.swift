import Foundation
import Testing
@testable import FerryRPC

/// The CLI checks who listens on `control.sock` (`SO_PEERCRED`) before it sends anything: a
/// socket put in place by another user gets no request, so no `user:password@` URL (issue 47).
struct ControlSocketOwnerTests {
    @Test func aSocketServedByAnotherUserGetsNothing() async throws {
        // Given a socket listened on by a process running as nobody (uid 65534).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-sock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(chmod(directory, 0o777) == 0)
        let path = directory + "/control.sock"
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        listener.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); print("ready", flush=True)
            c, _ = s.accept(); c.settimeout(10); total = 0
            while True:
                data = c.recv(65536)
                if not data: break
                total += len(data)
            print("received", total, flush=True)
            """, path]
        let output = Pipe()
        listener.standardOutput = output
        try listener.run()
        defer { if listener.isRunning { listener.terminate() } }
        let ready = output.fileHandleForReading.availableData
        #expect(String(decoding: ready, as: UTF8.self).hasPrefix("ready"))

        // When the CLI calls a method with a credential in a URL.
        var refused: (path: String, uid: UInt32)?
        do {
            _ = try await ControlClient.call(socketPath: path, method: "aria2.addUri", params: [["https://user:pw@example.com/f"]])
        } catch .notOwner(let socket, let uid) {
            refused = (socket, uid)
        } catch {}

        // Then it is refused, naming the socket and the uid, and the listener got no byte.
        #expect(refused?.path == path && refused?.uid == 65534)
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        listener.waitUntilExit()
        #expect(rest.contains("received 0"))
    }
}
