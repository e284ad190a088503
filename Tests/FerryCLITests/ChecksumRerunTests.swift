import FerryTestSupport
import Foundation
import Testing

/// Issue 42: a checksum given to `ferry get` is verified against the file on every run,
/// with one connection or several, and only the checksum of this command counts.
@Suite(.serialized) struct ChecksumRerunTests {
    enum Algorithm: String, CaseIterable, Sendable { case sha256 = "sha-256", md5 }

    /// `Fixture` is one file behind nginx, a download directory and a state directory.
    struct Fixture {
        let www: TemporaryDirectory
        let out: TemporaryDirectory
        let state: TemporaryDirectory
        let nginx: NginxServer
        let bytes: Data

        init(size: Int) throws {
            www = try TemporaryDirectory(worldReadable: true)
            out = try TemporaryDirectory()
            state = try TemporaryDirectory()
            try Pattern.writeFile(at: www.file("five.bin"), count: size, seed: 11)
            bytes = try Data(contentsOf: www.file("five.bin"))
            nginx = try NginxServer.start(root: www.url)
        }

        var url: String { nginx.url("/five.bin").absoluteString }
        var saved: URL { out.file("five.bin") }

        func checksum(_ algorithm: Algorithm, of data: Data? = nil) -> String {
            let data = data ?? bytes
            let hex = algorithm == .md5 ? MD5Hex.of(data: data) : SHA256Hex.of(data: data)
            return "\(algorithm.rawValue)=\(hex)"
        }

        func get(_ options: [String]) throws -> ProcessResult {
            try runFerry(["get", "--retries", "0"] + options + ["-d", out.path, url], stateDirectory: state.url)
        }

        func remove() {
            nginx.stop()
            www.remove(); out.remove(); state.remove()
        }
    }

    static let cases: [(Int, Algorithm)] = [(1, .sha256), (4, .sha256), (1, .md5), (4, .md5)]

    // Item 1: -x 4 with a checksum succeeds on the first run, for small and larger files.
    @Test(arguments: [(4, Algorithm.sha256, 6), (4, .md5, 6), (4, .sha256, 5 << 20), (4, .md5, 5 << 20), (1, .sha256, 5 << 20)])
    func aChecksumWithConnectionsSucceedsTheFirstTime(_ connections: Int, _ algorithm: Algorithm, _ size: Int) throws {
        let f = try Fixture(size: size)
        defer { f.remove() }

        let result = try f.get(["-x", "\(connections)", "--min-split-size", "1M", "--checksum", f.checksum(algorithm)])

        #expect(result.exitStatus == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: f.saved) == f.bytes)
        #expect(!FileManager.default.fileExists(atPath: f.out.file("five.bin.part").path))
    }
}
