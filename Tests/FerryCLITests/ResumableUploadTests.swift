import FerryTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// `ResumableUploadTests` run `ferry put --resumable` against real servers of both protocols
/// on 127.0.0.1: SwiftNIO's `NIOResumableUpload` (the IETF draft, interop versions 3 and 6)
/// and tuspyserver (tus 1.0), through a proxy that cuts connections, with kill -9 of the
/// process between runs. Every upload ends byte-exact on the server, never spliced.
@Suite(.serialized) struct ResumableUploadTests {
    static let size = 64 << 20

    /// `Fixture` is a 64 MiB file, a state directory and a files directory for the servers.
    struct Fixture {
        let directory: TemporaryDirectory
        var file: URL { directory.file("body.bin") }
        var stateDirectory: String { directory.file("state").path }
        var files: URL { directory.file("files") }

        init(seed: Int = 41) throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: directory.file("files"), withIntermediateDirectories: true)
            try Pattern.writeFile(at: directory.file("body.bin"), count: ResumableUploadTests.size, seed: seed)
        }

        func arguments(_ url: URL, _ extra: [String]) -> [String] {
            ["put", "-T", file.path, "--state-dir", stateDirectory] + extra + [url.absoluteString]
        }

        /// `put(_:_:)` runs `ferry put` to its end.
        func put(_ url: URL, _ extra: [String] = ["--resumable"]) throws -> ProcessResult {
            try run(executable: try ferryExecutableURL().path, arguments: arguments(url, extra), timeout: .seconds(180))
        }

        /// `putKilled(_:_:at:)` starts `ferry put --json` and kills it (-9) once its progress
        /// says at least `bytes` are on their way; whether it got there is returned.
        func putKilled(_ url: URL, _ extra: [String], at bytes: Int64) throws -> Bool {
            let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments(url, extra + ["--json"]))
            let reached = child.waitForOutput(timeout: .seconds(60)) { output in
                ResumableUploadTests.lastSent(in: output) >= bytes
            }
            child.signal(SIGKILL)
            _ = child.wait(timeout: .seconds(30))
            Fixture.log.withLock { $0 += String(decoding: child.standardError, as: UTF8.self) }
            return reached
        }

        func remove() { directory.remove() }

        /// What the killed runs wrote on stderr, for a failure's message.
        static let log = Mutex("")
    }

    /// `lastSent(in:)` is the `sent` of the last progress event in `--json` output.
    static func lastSent(in output: Data) -> Int64 {
        let text = String(decoding: output, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.contains("\"event\":\"progress\"") }),
              let range = line.range(of: "\"sent\":") else { return 0 }
        return Int64(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// Ten cut points between 5% and 85% of the body, in order, different each run (a kill
    /// point nearer the end could come after the upload ended).
    static func cutPoints(count: Int = 10) -> [Int64] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in Int64.random(in: Int64(size / 20)...Int64(size / 20 * 17), using: &generator) }.sorted()
    }

    // MARK: - Both protocols: drops, kills, a changed file, a server that forgot

    @Test(arguments: UploadPeer.Kind.allCases)
    func anUploadGoesOnAfterTenDroppedConnectionsInOneRun(kind: UploadPeer.Kind) throws {
        guard kind.isAvailable else { return }
        let fixture = try Fixture()
        defer { fixture.remove() }
        let peer = try UploadPeer.start(kind, files: fixture.files)
        defer { peer.stop() }
        let proxy = try CuttingProxy.start(upstreamPort: peer.port)
        defer { proxy.stop() }
        // Cut points are totals of every byte sent through the proxy: each one is hit once.
        var total: Int64 = 0
        for (index, point) in Self.cutPoints().enumerated() {
            total = max(total + 1, point + Int64(index) * 2000)
            try proxy.cut(after: total)
        }

        let result = try fixture.put(peer.url(through: proxy), kind.options + ["--retry", "3"])

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("resuming upload at"))
        // One upload ends, byte-exact. (A drop before the client read the server's 104 -- a
        // busy machine -- makes it send the upload again from the start: a second upload
        // begun, which the bytes-received bound still holds.)
        #expect(try peer.completeDigests() == [Pattern.sha256Hex(count: Self.size, seed: 41)])
        if let versions = try peer.interopVersions() { #expect(versions == [kind.interopVersion]) }
        #expect(try peer.receivedBytes() <= Int64(Double(Self.size) * 1.1))
    }

    @Test(arguments: UploadPeer.Kind.allCases)
    func anUploadKilledAtTenPointsEndsByteExactWithTheSameCommand(kind: UploadPeer.Kind) throws {
        guard kind.isAvailable else { return }
        let fixture = try Fixture()
        defer { fixture.remove() }
        let peer = try UploadPeer.start(kind, files: fixture.files)
        defer { peer.stop() }
        let options = kind.options + ["--limit-rate", "32M"]

        var reached = 0
        for point in Self.cutPoints() where try fixture.putKilled(peer.url, options, at: point) {
            reached += 1
        }
        let result = try fixture.put(peer.url, options)

        #expect(reached >= 8, "most kills come before the end")
        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("resuming upload at"), "\(result.stderr)")
        #expect(try peer.uploadCount() == 1, "one upload, resumed: \(Fixture.log.withLock { $0 })")
        #expect(try peer.completeDigests() == [Pattern.sha256Hex(count: Self.size, seed: 41)])
        // Resumed where the server stood: the server received at most 1.1x the body in all.
        let received = try peer.receivedBytes()
        #expect(received <= Int64(Double(Self.size) * 1.1), "\(received) bytes received")
    }

    @Test(arguments: UploadPeer.Kind.allCases)
    func aFileChangedBetweenAttemptsStartsANewUploadNeverASplice(kind: UploadPeer.Kind) throws {
        guard kind.isAvailable else { return }
        let fixture = try Fixture()
        defer { fixture.remove() }
        let peer = try UploadPeer.start(kind, files: fixture.files)
        defer { peer.stop() }
        let options = kind.options + ["--limit-rate", "32M"]
        #expect(try fixture.putKilled(peer.url, options, at: Int64(Self.size / 3)))

        // The same path, the same size, other bytes.
        try Pattern.writeFile(at: fixture.file, count: Self.size, seed: 42)
        let result = try fixture.put(peer.url, options)

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("is not the file the upload began with"), "\(result.stderr)")
        #expect(result.stderr.contains("starting a new upload"))
        #expect(!result.stderr.contains("resuming upload at"))
        #expect(try peer.completeDigests() == [Pattern.sha256Hex(count: Self.size, seed: 42)])
    }

    @Test(arguments: UploadPeer.Kind.allCases)
    func aServerThatForgotTheUploadGetsANewOne(kind: UploadPeer.Kind) throws {
        guard kind.isAvailable else { return }
        let fixture = try Fixture()
        defer { fixture.remove() }
        let peer = try UploadPeer.start(kind, files: fixture.files)
        defer { peer.stop() }
        let options = kind.options + ["--limit-rate", "32M"]
        #expect(try fixture.putKilled(peer.url, options, at: Int64(Self.size / 2)))

        try peer.forget()
        let result = try fixture.put(peer.url, options)

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("the server no longer has the upload (404): starting a new upload"), "\(result.stderr)")
        #expect(try peer.completeDigests() == [Pattern.sha256Hex(count: Self.size, seed: 41)])
    }

    // MARK: - tus (tuspyserver)

    @Test(.enabled(if: TusServer.isAvailable, "tuspyserver is not installed (make deps)"))
    func aTusServerRestartedMidUploadStillHasItAndTheUploadGoesOn() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        var server = try TusServer.start(files: fixture.files)
        defer { server.stop() }
        let port = server.port
        let url = server.uploadsURL
        let options = ["--resumable=tus", "--limit-rate", "32M"]
        #expect(try fixture.putKilled(url, options, at: Int64(Self.size / 2)))

        // The same server again, on its port and files: tus keeps uploads on disk.
        server.stop()
        server = try TusServer.start(files: fixture.files, port: port)
        let result = try fixture.put(url, options)

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("resuming upload at"), "\(result.stderr)")
        let uploads = try server.uploads()
        #expect(uploads.count == 1, "\(uploads)")
        #expect(uploads.first?.complete == true && uploads.first?.sha256 == Pattern.sha256Hex(count: Self.size, seed: 41))
    }

    @Test(.enabled(if: TusServer.isAvailable, "tuspyserver is not installed (make deps)"))
    func aTusServerOfferingChecksumsChecksEveryAppendAndABadOneGoesAgain() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let server = try TusServer.start(files: fixture.files, checksum: true)
        defer { server.stop() }
        // The first two appends arrive as if a byte had changed on the way.
        try server.corrupt(next: 2)
        let url = server.uploadsURL
        #expect(try fixture.putKilled(url, ["--resumable", "--limit-rate", "32M"], at: Int64(Self.size / 2)))

        let result = try fixture.put(url)

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("resuming upload at"), "\(result.stderr)")
        #expect(Fixture.log.withLock { $0 }.contains("did not match what was sent: sending them again"))
        let checks = try server.checks()
        #expect(checks.mismatches == 2)
        // 64 MiB in windows of 8 MiB: each one checked (one more when the kill cut one short).
        #expect(checks.checksums >= Self.size / (8 << 20), "\(checks)")
        let uploads = try server.uploads()
        #expect(uploads.count == 1, "\(uploads)")
        #expect(uploads.first?.complete == true && uploads.first?.sha256 == Pattern.sha256Hex(count: Self.size, seed: 41))
    }

    @Test(.enabled(if: TusServer.isAvailable, "tuspyserver is not installed (make deps)"))
    func tuspyAndFerryUploadTheSameBytesToOneTusServer() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let server = try TusServer.start(files: fixture.files)
        defer { server.stop() }

        let script = """
            import sys
            from tusclient import client
            uploader = client.TusClient(sys.argv[1]).uploader(sys.argv[2], chunk_size=8 << 20)
            uploader.upload()
            """
        let tuspy = try run(executable: "python3", arguments: ["-c", script, server.uploadsURL.absoluteString, fixture.file.path],
                            timeout: .seconds(120))
        let ferry = try fixture.put(server.uploadsURL)

        #expect(tuspy.succeeded, "\(tuspy.stderr)")
        #expect(ferry.succeeded, "\(ferry.stderr)")
        let uploads = try server.uploads()
        #expect(uploads.count == 2)
        #expect(uploads.allSatisfy { $0.complete && $0.sha256 == Pattern.sha256Hex(count: Self.size, seed: 41) })
    }

    // MARK: - Neither protocol, and what cannot resume

    @Test func aServerOfferingNoResumptionTakesTheUploadAndTheNoteSaysItCouldNotHaveResumed() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let server = try FaultServer.start()
        defer { server.stop() }

        let result = try fixture.put(server.url("/sink"))

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stdout.contains(Pattern.sha256Hex(count: Self.size, seed: 41)))
        #expect(result.stderr.contains("the server offered no resumable upload"), "\(result.stderr)")
    }

    @Test func aSecondPutOfTheSameUploadIsRefusedWhileTheFirstSends() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let server = try ResumableUploadServer.start(files: fixture.files)
        defer { server.stop() }
        let url = server.url("/upload")
        let first = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                           arguments: fixture.arguments(url, ["--resumable", "--limit-rate", "8M", "--json"]))
        defer { first.kill() }
        #expect(first.waitForOutput(timeout: .seconds(60)) { ResumableUploadTests.lastSent(in: $0) > 0 })

        let second = try fixture.put(url)

        #expect(second.exitStatus == 2, "\(second.stderr)")
        #expect(second.stderr.contains("another ferry put is sending this same upload now"))
        #expect(try server.uploads().count == 1, "the second sent nothing")
    }

    @Test func standardInputAndABadInteropVersionAreUsageErrors() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let stdin = try run(executable: try ferryExecutableURL().path,
                            arguments: ["put", "--resumable", "-T", "-", "--state-dir", fixture.stateDirectory, "http://127.0.0.1:9/x"],
                            timeout: .seconds(30))
        #expect(stdin.exitStatus == 2)
        #expect(stdin.stderr.contains("standard input and named pipes cannot resume"), "\(stdin.stderr)")

        let version = try fixture.put(URL(string: "http://127.0.0.1:9/x")!, ["--resumable", "--upload-interop-version", "4"])
        #expect(version.exitStatus == 2)
        #expect(version.stderr.contains("is not one of 3, 5, 6"))
    }
}

/// Forms resume as raw files do: the same command sends the same bytes (its boundary is
/// made from the command), and a resumed form is the rest of that body.
@Suite(.serialized) struct ResumableFormUploadTests {
    struct Form {
        let directory: TemporaryDirectory
        var stateDirectory: String { directory.file("state").path }
        var fields: [String] {
            ["title=Holiday", "photo=@\(directory.file("a.bin").path);type=image/jpeg", "video=@\(directory.file("b.bin").path)"]
        }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: directory.file("files"), withIntermediateDirectories: true)
            try Pattern.writeFile(at: directory.file("a.bin"), count: 24 << 20, seed: 51)
            try Pattern.writeFile(at: directory.file("b.bin"), count: 40 << 20, seed: 52)
        }

        func arguments(_ url: URL, _ extra: [String]) -> [String] {
            ["put", "--state-dir", stateDirectory] + fields.flatMap { ["-F", $0] } + extra + [url.absoluteString]
        }

        /// `expectedBody(_:_:)` is the body the command sends, as `--save-body` writes it.
        func expectedBody(_ url: URL, _ extra: [String]) throws -> Data {
            let path = directory.file("expected.body")
            try? FileManager.default.removeItem(at: path)
            let saved = try run(executable: try ferryExecutableURL().path, arguments: arguments(url, extra + ["--save-body", path.path]),
                                timeout: .seconds(60))
            #expect(saved.succeeded, "\(saved.stderr)")
            return try Data(contentsOf: path)
        }
    }

    @Test func aFormWithTwoFilesSurvivesDropsAndKillNineByteExact() throws {
        let form = try Form()
        defer { form.directory.remove() }
        let server = try ResumableUploadServer.start(files: form.directory.file("files"))
        defer { server.stop() }
        let proxy = try CuttingProxy.start(upstreamPort: server.port)
        defer { proxy.stop() }
        let url = proxy.url("/form")
        let options = ["--resumable", "--limit-rate", "32M"]
        let expected = try form.expectedBody(url, options)
        let points = ResumableUploadTests.cutPoints(count: 10)
        var total: Int64 = 0
        for (index, point) in points.prefix(5).enumerated() {
            total = max(total + 1, point + Int64(index) * 2000)
            try proxy.cut(after: total)
        }
        for point in points.suffix(5) {
            let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: form.arguments(url, options + ["--json"]))
            _ = child.waitForOutput(timeout: .seconds(60)) { ResumableUploadTests.lastSent(in: $0) >= point }
            child.signal(SIGKILL)
            _ = child.wait(timeout: .seconds(30))
        }
        let result = try run(executable: try ferryExecutableURL().path, arguments: form.arguments(url, options), timeout: .seconds(120))

        #expect(result.succeeded, "\(result.stderr)")
        let uploads = try server.uploads()
        #expect(uploads.count == 1, "one upload, resumed: \(uploads) \(result.stderr)")
        let upload = try #require(uploads.first)
        #expect(upload.complete && upload.contentType?.hasPrefix("multipart/form-data; boundary=Boundary+") == true)
        #expect(SHA256Hex.of(data: try server.body(of: upload.id)) == SHA256Hex.of(data: expected))
        let received = try server.receivedBytes()
        #expect(received <= Int64(Double(expected.count) * 1.1), "\(received) bytes received")
    }

    @Test(.enabled(if: TusServer.isAvailable, "tuspyserver is not installed (make deps)"))
    func aFormOverTusKilledAtFivePointsEndsByteExact() throws {
        let form = try Form()
        defer { form.directory.remove() }
        let server = try TusServer.start(files: form.directory.file("files"))
        defer { server.stop() }
        let options = ["--resumable=tus", "--limit-rate", "32M"]
        let expected = try form.expectedBody(server.uploadsURL, options)
        for point in ResumableUploadTests.cutPoints(count: 5) {
            let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path,
                                               arguments: form.arguments(server.uploadsURL, options + ["--json"]))
            _ = child.waitForOutput(timeout: .seconds(60)) { ResumableUploadTests.lastSent(in: $0) >= point }
            child.signal(SIGKILL)
            _ = child.wait(timeout: .seconds(30))
        }
        let result = try run(executable: try ferryExecutableURL().path, arguments: form.arguments(server.uploadsURL, options),
                             timeout: .seconds(120))

        #expect(result.succeeded, "\(result.stderr)")
        #expect(result.stderr.contains("resuming upload at"))
        let uploads = try server.uploads()
        #expect(uploads.count == 1)
        #expect(uploads.first?.complete == true && uploads.first?.sha256 == SHA256Hex.of(data: expected))
    }
}

/// `UploadPeer` is a resumable-upload server of either protocol, as the tests use it: the
/// IETF draft (NIOResumableUpload, spoken at interop 3 or 6) or tus (tuspyserver).
final class UploadPeer {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case ietf3, ietf6, tus

        var testDescription: String { rawValue }
        /// `options` are `ferry put`'s options for this peer.
        var options: [String] {
            switch self {
            case .ietf3: ["--resumable=ietf", "--upload-interop-version", "3"]
            case .ietf6: ["--resumable=ietf"]
            case .tus: ["--resumable=tus"]
            }
        }
        var interopVersion: String { self == .ietf3 ? "3" : "6" }
        /// `isAvailable` is false for tus when tuspyserver is not installed (the case is skipped).
        var isAvailable: Bool { self != .tus || TusServer.isAvailable }
    }

    let kind: Kind
    private let ietf: ResumableUploadServer?
    private let tus: TusServer?

    private init(kind: Kind, ietf: ResumableUploadServer?, tus: TusServer?) {
        self.kind = kind
        self.ietf = ietf
        self.tus = tus
    }

    static func start(_ kind: Kind, files: URL) throws -> UploadPeer {
        kind == .tus ? UploadPeer(kind: kind, ietf: nil, tus: try TusServer.start(files: files))
            : UploadPeer(kind: kind, ietf: try ResumableUploadServer.start(files: files), tus: nil)
    }

    var port: Int { ietf?.port ?? tus?.port ?? 0 }
    /// `url` is where uploads go.
    var url: URL { ietf?.url("/upload") ?? tus?.uploadsURL ?? URL(fileURLWithPath: "/") }

    /// `url(through:)` is `url` by way of `proxy` (which forwards to this peer).
    func url(through proxy: CuttingProxy) -> URL {
        proxy.url(kind == .tus ? "/files/" : "/upload")
    }

    /// `storedBytes()` is how many bytes the server holds of its first upload.
    func storedBytes() throws -> Int64 {
        // tus: the data file as it grows (the server records the offset when a PATCH ends).
        try ietf?.uploads().first?.bytes ?? tus?.uploads().first?.stored ?? 0
    }

    /// `uploadCount()` is how many uploads the server has begun.
    func uploadCount() throws -> Int {
        try ietf?.uploads().count ?? tus?.uploads().count ?? 0
    }

    /// `completeDigests()` are the SHA-256 of every complete upload's bytes on the server.
    func completeDigests() throws -> [String] {
        if let ietf { return try ietf.uploads().filter(\.complete).map { SHA256Hex.of(data: try ietf.body(of: $0.id)) } }
        return try tus?.uploads().filter(\.complete).map(\.sha256) ?? []
    }

    func receivedBytes() throws -> Int64 {
        try ietf?.receivedBytes() ?? tus?.receivedBytes() ?? 0
    }

    /// `interopVersions()` are the IETF interop versions requests carried; `nil` for tus.
    func interopVersions() throws -> [String]? {
        try ietf?.interopVersions()
    }

    /// `forget()` makes the server forget every upload: the IETF server restarts (its state
    /// is in memory), tus's files are deleted.
    func forget() throws {
        if let ietf { try ietf.restart() }
        if let tus {
            // The server may remove a file of its own meanwhile (a lock, a temporary): one gone
            // already is forgotten too.
            for name in try FileManager.default.contentsOfDirectory(atPath: tus.filesDirectory.path) {
                let path = tus.filesDirectory.appendingPathComponent(name).path
                var status = stat()
                // Its uploads are files; its locks are folders of their own.
                guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else { continue }
                if unlink(path) != 0 && errno != ENOENT {
                    throw TestSupportError("cannot remove \(path): \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    func stop() {
        ietf?.stop()
        tus?.stop()
    }
}
