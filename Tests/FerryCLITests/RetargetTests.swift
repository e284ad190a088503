import FerryTestSupport
import Foundation
import Glibc
import Testing

/// A download whose link expires mid-way (the server answers 403 once it had bytes) waits
/// paused as "link expired", its bytes kept; `ferry retarget` to a source of the same file
/// (same length and Last-Modified, so the same ETag) resumes it byte-exact, and to another
/// file starts it over.
@Suite(.serialized) struct RetargetTests {
    static let size = 4 << 20

    struct Fixture {
        let www: TemporaryDirectory
        let work: TemporaryDirectory
        let nginx: NginxServer
        let daemon: FerryDaemon
        var state: String { work.file("state").path }

        init() throws {
            www = try TemporaryDirectory(worldReadable: true)
            work = try TemporaryDirectory()
            for folder in ["signed", "fresh", "other", "mirror"] {
                try FileManager.default.createDirectory(at: www.file(folder), withIntermediateDirectories: true)
            }
            try Pattern.writeFile(at: www.file("signed/big.bin"), count: RetargetTests.size, seed: 81)
            // The same bytes with the same modification time: nginx gives both one ETag.
            try FileManager.default.copyItem(at: www.file("signed/big.bin"), to: www.file("fresh/big.bin"))
            let attributes = try FileManager.default.attributesOfItem(atPath: www.file("signed/big.bin").path)
            try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate] as Any], ofItemAtPath: www.file("fresh/big.bin").path)
            try Pattern.writeFile(at: www.file("other/big.bin"), count: RetargetTests.size, seed: 82)
            // A mirror of the same bytes with another ETag (another modification time), which
            // names their digest (Metalink/HTTP).
            try Pattern.writeFile(at: www.file("mirror/big.bin"), count: RetargetTests.size, seed: 81)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: www.file("mirror/big.bin").path)
            let digest = SHA256Hex.base64(hex: Pattern.sha256Hex(count: RetargetTests.size, seed: 81))
            // Another file of the same length changed at another time (nginx's ETag is its
            // modification time and length: the same second would make it the same ETag).
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: www.file("other/big.bin").path)
            // The signed link answers 403 once the flag file exists: a link that expired.
            let flag = www.file("expired").path
            nginx = try NginxServer.start(root: www.url, extraConfig: "location /signed/ { limit_rate 512k; if (-f \(flag)) { return 403; } } location /mirror/ { add_header Digest \"SHA-256=\(digest)\"; }")
            daemon = try FerryDaemon.start(stateDirectory: work.file("state"))
        }

        func stop() {
            _ = daemon.stop()
            nginx.stop()
            www.remove()
            work.remove()
        }

        func ferry(_ arguments: [String]) throws -> ProcessResult {
            try run(executable: try ferryExecutableURL().path, arguments: arguments + ["--state-dir", state], timeout: .seconds(60))
        }

        func status(_ gid: String) -> [String: Any] {
            ((try? daemon.statuses()) ?? [:])[gid] ?? [:]
        }

        /// `expireMidway()` adds the signed download, lets it get a MiB, then makes its link
        /// answer 403 and makes it try again; returns its GID once it waits as link expired.
        func expireMidway(checksum: String? = nil) throws -> String {
            var options: [String: Any] = ["dir": work.file("out").path]
            if let checksum { options["checksum"] = checksum }
            let gid = try #require(try daemon.result("aria2.addUri", [[nginx.url("/signed/big.bin").absoluteString], options]) as? String)
            #expect(daemon.waitUntil(timeout: .seconds(60)) { Int64(status(gid)["completedLength"] as? String ?? "0") ?? 0 > 1 << 20 })
            try Data().write(to: www.file("expired"))
            _ = try daemon.result("aria2.pause", [gid])
            #expect(daemon.waitUntil(timeout: .seconds(30)) { status(gid)["status"] as? String == "paused" })
            _ = try daemon.result("aria2.unpause", [gid])
            #expect(daemon.waitUntil(timeout: .seconds(30)) {
                status(gid)["status"] as? String == "paused" && (status(gid)["errorMessage"] as? String ?? "").contains("link expired")
            }, "\(status(gid))")
            return gid
        }
    }

    @Test func anExpiredLinkWaitsAndARetargetToTheSameFileKeepsItsBytes() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let gid = try fixture.expireMidway()
        let kept = Int64(fixture.status(gid)["completedLength"] as? String ?? "0") ?? 0
        #expect(kept > 1 << 20)
        let list = try fixture.ferry(["list"])
        #expect(list.stdout.contains("paused"))

        let retarget = try fixture.ferry(["retarget", "1", fixture.nginx.url("/fresh/big.bin").absoluteString])

        #expect(retarget.exitStatus == 0, "\(retarget.stderr)")
        #expect(retarget.stderr.contains("now downloads from"))
        #expect(fixture.daemon.waitUntil(timeout: .seconds(60)) { fixture.status(gid)["status"] as? String == "complete" }, "\(fixture.status(gid))")
        #expect(try SHA256Hex.of(file: fixture.work.file("out/big.bin")) == Pattern.sha256Hex(count: Self.size, seed: 81))
        // Resumed, not fetched again: the new source sent the rest (a 206), not the whole file.
        let fresh = fixture.nginx.accessLog().split(separator: "\n").filter { $0.contains("/fresh/big.bin") }
        #expect(fresh.count == 1 && fresh.first?.contains(" 206 ") == true, "\(fresh)")
    }

    @Test func aRetargetToAMirrorWithAnotherETagKeepsTheBytesWhenItsDigestMatches() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let gid = try fixture.expireMidway(checksum: "sha-256=" + Pattern.sha256Hex(count: Self.size, seed: 81))

        let retarget = try fixture.ferry(["retarget", "1", fixture.nginx.url("/mirror/big.bin").absoluteString])

        #expect(retarget.exitStatus == 0, "\(retarget.stderr)")
        #expect(fixture.daemon.waitUntil(timeout: .seconds(60)) { fixture.status(gid)["status"] as? String == "complete" }, "\(fixture.status(gid))")
        #expect(try SHA256Hex.of(file: fixture.work.file("out/big.bin")) == Pattern.sha256Hex(count: Self.size, seed: 81))
        // Its whole reply proved it the same file; the rest came as a range, the bytes kept.
        let mirror = fixture.nginx.accessLog().split(separator: "\n").filter { $0.contains("/mirror/big.bin") }
        #expect(mirror.contains { $0.contains(" 206 ") }, "\(mirror)")
    }

    @Test func aRetargetToAnotherFileStartsOverAndEndsWithThatFile() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let gid = try fixture.expireMidway()

        let retarget = try fixture.ferry(["retarget", "1", fixture.nginx.url("/other/big.bin").absoluteString])

        #expect(retarget.exitStatus == 0, "\(retarget.stderr)")
        #expect(fixture.daemon.waitUntil(timeout: .seconds(60)) { fixture.status(gid)["status"] as? String == "complete" }, "\(fixture.status(gid))")
        // Never a splice of two files: the other file, whole.
        #expect(try SHA256Hex.of(file: fixture.work.file("out/big.bin")) == Pattern.sha256Hex(count: Self.size, seed: 82))
        let other = fixture.nginx.accessLog().split(separator: "\n").filter { $0.contains("/other/big.bin") }
        #expect(other.last?.contains(" 200 ") == true, "\(other)")
    }

    @Test func aRunningTaskOrAnUnknownOneIsNotRetargeted() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let gid = try #require(try fixture.daemon.result("aria2.addUri", [[fixture.nginx.url("/signed/big.bin").absoluteString], ["dir": fixture.work.file("out").path]]) as? String)
        #expect(fixture.daemon.waitUntil(timeout: .seconds(30)) { fixture.status(gid)["status"] as? String == "active" })
        let running = try fixture.ferry(["retarget", "1", fixture.nginx.url("/fresh/big.bin").absoluteString])
        #expect(running.exitStatus == 2 && running.stderr.contains("pause it first"), "\(running.stderr)")
        let unknown = try fixture.ferry(["retarget", "99", fixture.nginx.url("/fresh/big.bin").absoluteString])
        #expect(unknown.exitStatus == 2 && unknown.stderr.contains("no such task"), "\(unknown.exitStatus as Any) \(unknown.stderr)")
    }
}
