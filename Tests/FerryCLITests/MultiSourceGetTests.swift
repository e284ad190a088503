import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Glibc
import Testing

/// `ferry get FILE.meta4` of one file from three nginx servers on 127.0.0.1 at once: one slow,
/// one serving a corrupted byte in one piece, one answering 404. Every piece is checked as it
/// completes; the corrupt piece is fetched again from another source; after kill -9 only what
/// was not checked and on disk is fetched again.
@Suite(.serialized) struct MultiSourceGetTests {
    static let size = 32 << 20
    static let pieceLength = 1 << 20
    /// The corrupt server's bad piece: the first one of the range it is given first (the
    /// second half of the file).
    static let corruptPiece = 16

    struct Fixture {
        let work: TemporaryDirectory
        let www: [TemporaryDirectory]
        let servers: [NginxServer]
        var digest: String { Pattern.sha256Hex(count: MultiSourceGetTests.size, seed: 83) }
        var saved: URL { work.file("out/iso/f.bin") }

        /// `rates` cap each server's connections (the third has no file).
        init(rates: [String?] = ["2m", nil, nil]) throws {
            work = try TemporaryDirectory()
            www = try (0..<3).map { _ in try TemporaryDirectory(worldReadable: true) }
            try Pattern.writeFile(at: www[0].file("f.bin"), count: MultiSourceGetTests.size, seed: 83)
            var corrupt = Pattern.bytes(count: MultiSourceGetTests.size, seed: 83)
            corrupt[MultiSourceGetTests.corruptPiece * MultiSourceGetTests.pieceLength + 100] ^= 0xFF
            try corrupt.write(to: www[1].file("f.bin"))
            let roots = www.map(\.url)
            servers = try (0..<3).map { try NginxServer.start(root: roots[$0], limitRate: rates[$0]) }
        }

        /// `metalink(pieces:)` writes the Metalink of `iso/f.bin` from the three servers in
        /// order, with its SHA-256 and, when `pieces`, the SHA-256 of each MiB.
        func metalink(pieces: Bool = true) throws -> URL {
            let bytes = Pattern.bytes(count: MultiSourceGetTests.size, seed: 83)
            var hashes = ""
            if pieces {
                let each = stride(from: 0, to: MultiSourceGetTests.size, by: MultiSourceGetTests.pieceLength).map { start in
                    var hasher = ChecksumHasher(algorithm: .sha256)
                    hasher.update(bytes[start..<(start + MultiSourceGetTests.pieceLength)])
                    return "<hash>\(hasher.finalizeHex())</hash>"
                }
                hashes = "<pieces length=\"\(MultiSourceGetTests.pieceLength)\" type=\"sha-256\">\(each.joined())</pieces>"
            }
            let urls = servers.enumerated().map { "<url priority=\"\($0.offset + 1)\">\($0.element.url("/f.bin").absoluteString)</url>" }
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="iso/f.bin">
                <size>\(MultiSourceGetTests.size)</size><hash type="sha-256">\(digest)</hash>\(hashes)\(urls.joined())
                </file></metalink>
                """
            let file = work.file("f.meta4")
            try Data(text.utf8).write(to: file)
            return file
        }

        var arguments: [String] {
            ["get", "-d", work.file("out").path, "--state-dir", work.file("state").path]
        }

        func stop() {
            for server in servers { server.stop() }
            for directory in www { directory.remove() }
            work.remove()
        }
    }

    /// `ranges(_:)` are the byte ranges a server's access log shows asked for and answered 206.
    static func ranges(_ log: String) -> [ClosedRange<Int>] {
        log.split(separator: "\n").compactMap { line in
            guard line.contains(" 206 "), let start = line.range(of: "\"bytes=") else { return nil }
            let bounds = line[start.upperBound...].prefix { $0 != "\"" }.split(separator: "-").compactMap { Int($0) }
            return bounds.count == 2 ? bounds[0]...bounds[1] : nil
        }
    }

    /// `ranges(_:)` are the byte ranges of `requests` answered 206.
    static func ranges(_ requests: [NginxServer.TimedRequest]) -> [ClosedRange<Int>] {
        requests.compactMap { request in
            guard request.status == 206, request.range.hasPrefix("bytes=") else { return nil }
            let bounds = request.range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
            return bounds.count == 2 ? bounds[0]...bounds[1] : nil
        }
    }

    static func received(_ output: Data) -> Int64 {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line -> Int64? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["received"] as? NSNumber)?.int64Value
        }.max() ?? 0
    }

    @Test func threeSourcesAtOnceEndByteExactAndTheCorruptPieceComesAgainFromAnother() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }

        let result = try run(executable: try ferryExecutableURL().path, arguments: fixture.arguments + [try fixture.metalink().path],
                             timeout: .seconds(120))

        #expect(result.exitStatus == 0, "\(result.stderr) \(fixture.servers.map { $0.accessLog() })")
        #expect(try SHA256Hex.of(file: fixture.saved) == fixture.digest)
        // All three were asked: the slow one and the corrupt one served ranges, the third said 404.
        let served = fixture.servers.map { Self.ranges($0.accessLog()) }
        #expect(!served[0].isEmpty && !served[1].isEmpty, "\(served)")
        #expect(fixture.servers[2].accessLog().contains(" 404 "))
        // The corrupt server served the bad piece; another server served it again.
        let bad = (Self.corruptPiece * Self.pieceLength)...((Self.corruptPiece + 1) * Self.pieceLength - 1)
        #expect(served[1].contains { $0.overlaps(bad) }, "\(served[1])")
        #expect(served[0].contains { $0.lowerBound <= bad.lowerBound && $0.upperBound >= bad.upperBound }, "\(served[0])")
    }

    @Test func withoutPieceHashesTheCorruptSourceFailsTheWholeFileHashWithStatus3AndNoFile() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }

        let result = try run(executable: try ferryExecutableURL().path,
                             arguments: fixture.arguments + [try fixture.metalink(pieces: false).path], timeout: .seconds(120))

        #expect(result.exitStatus == 3, "\(result.stderr)")
        #expect(result.stderr.contains("checksum mismatch (sha-256)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.saved.path))
        #expect(!Self.ranges(fixture.servers[1].accessLog()).isEmpty, "the corrupt source was used")
    }

    @Test func killedAtTenPointsItResumesByteExactAndFetchesNoCheckedPieceAgain() throws {
        let fixture = try Fixture(rates: ["1m", "1m", nil])
        defer { fixture.stop() }
        let metalink = try fixture.metalink()
        let arguments = fixture.arguments + ["--json", metalink.path]
        var kills = 0
        for moment in [2, 4, 6, 9, 12, 15, 18, 21, 24, 27] {
            let verified = try Self.verifiedPieces(fixture)
            // A request is this run's by its start: the killed run's cut requests may be logged later.
            let began = Date().timeIntervalSince1970
            let child = try ChildProcess.spawn(executable: try ferryExecutableURL().path, arguments: arguments)
            defer { child.kill() }
            let reached = child.waitForOutput(timeout: .seconds(60)) { Self.received($0) >= Int64(moment) << 20 }
            child.signal(SIGKILL)
            _ = child.wait(timeout: .seconds(10))
            guard reached else { break }
            kills += 1
            // What this run asked for overlaps no piece checked before it began (the corrupt
            // piece, reopened, is asked again only from the other server).
            for (index, server) in fixture.servers.enumerated() {
                for range in Self.ranges(server.timedRequests().filter { $0.start >= began }) {
                    let asked = range.lowerBound..<(range.upperBound + 1)
                    let again = verified.filter { asked.overlaps(($0 * Self.pieceLength)..<(($0 + 1) * Self.pieceLength)) }
                    #expect(again.isEmpty, "run \(kills) asked \(range) of server \(index), with checked pieces \(again.sorted())")
                }
            }
        }
        #expect(kills >= 5, "\(kills) kills")
        #expect(try Self.verifiedPieces(fixture).count > 0, "checked pieces are in the journal")

        let last = try run(executable: try ferryExecutableURL().path, arguments: fixture.arguments + [metalink.path], timeout: .seconds(180))

        #expect(last.exitStatus == 0, "\(last.stderr)")
        #expect(try SHA256Hex.of(file: fixture.saved) == fixture.digest)
    }

    /// `verifiedPieces(_:)` are the pieces the journal records checked (none before the first run).
    static func verifiedPieces(_ fixture: Fixture) throws -> Set<Int> {
        let path = fixture.work.file("state/journal.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let journal = try Journal.open(at: path, onCorruption: .fail).journal
        guard let task = try journal.tasks(limit: 1).first else { return [] }
        return try journal.pieces(of: task.id).verified
    }
}
