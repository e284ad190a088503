import FerryTestSupport
import Foundation
import Synchronization
import Testing
@testable import FerryKit

/// One file from three nginx servers on 127.0.0.1 at once: one slow, one serving a corrupted
/// byte in one piece, one answering 404. Every piece is checked against its hash as it
/// completes; the corrupt one is fetched again from another source and its source demoted.
@Suite(.serialized) struct MultiSourceDownloadTests {
    static let size = 24 << 20
    static let pieceLength: Int64 = 1 << 20

    /// `Mirrors` are the three servers and the good file's piece hashes.
    struct Mirrors {
        let www: [TemporaryDirectory]
        let servers: [NginxServer]
        let out: TemporaryDirectory

        /// The slow one (2 MiB/s a connection) first, then the corrupt one (piece 12 has a byte
        /// changed: the first byte the second half's range asks of it), then the one without the file.
        init(corruptPiece: Int = 12, corruptLength: Bool = false) throws {
            www = try (0..<3).map { _ in try TemporaryDirectory(worldReadable: true) }
            out = try TemporaryDirectory()
            try Pattern.writeFile(at: www[0].file("f.bin"), count: MultiSourceDownloadTests.size, seed: 5)
            var corrupt = Pattern.bytes(count: MultiSourceDownloadTests.size, seed: 5)
            corrupt[corruptPiece << 20 + 100] ^= 0xFF
            if corruptLength { corrupt.append(0) }
            try corrupt.write(to: www[1].file("f.bin"))
            servers = [
                try NginxServer.start(root: www[0].url, limitRate: "2m"),
                try NginxServer.start(root: www[1].url),
                try NginxServer.start(root: www[2].url),
            ]
        }

        var urls: [URL] { servers.map { $0.url("/f.bin") } }

        func stop() {
            for server in servers { server.stop() }
            for directory in www { directory.remove() }
            out.remove()
        }
    }

    static func hashes() throws -> PieceHashes {
        let bytes = Pattern.bytes(count: size, seed: 5)
        let digests = stride(from: 0, to: size, by: Int(pieceLength)).map { start in
            var hasher = ChecksumHasher(algorithm: .sha256)
            hasher.update(bytes[start..<min(size, start + Int(pieceLength))])
            return hasher.finalizeHex()
        }
        return try #require(PieceHashes(algorithm: .sha256, length: pieceLength, hashes: digests))
    }

    static func run(_ download: SegmentedDownload, url: URL) async -> Result<TransferResult, FerryError> {
        let session = SessionManager()
        defer { session.invalidate() }
        let task = session.task(kind: .download, request: Request(url: url), delegate: download)
        task.resume()
        return await task.outcome()
    }

    @Test func aCorruptPieceIsFetchedAgainFromAnotherSourceAndItsSourceDemoted() async throws {
        let mirrors = try Mirrors()
        defer { mirrors.stop() }
        let verified = VerifiedLog()
        let download = SegmentedDownload(
            destination: DownloadDestination(directory: mirrors.out.url, fileName: "f.bin"), connections: 6,
            mirrors: Array(mirrors.urls.dropFirst()), perSourceConnections: 2, pieceHashes: try Self.hashes(),
            piecesVerified: { verified.record($0) }, sourceNote: { verified.note($0) })

        let session = SessionManager()
        defer { session.invalidate() }
        let task = session.task(kind: .download, request: Request(url: mirrors.urls[0]), delegate: download)
        task.resume()
        let outcome = await task.outcome()

        let result = try outcome.get()
        #expect(try Data(contentsOf: try #require(result.fileURL)) == Pattern.bytes(count: Self.size, seed: 5))
        // The task's progress says each source's state (what getServers and ferry list show).
        #expect(task.progress.sources?.map(\.url) == mirrors.urls, "\(task.progress)")
        #expect(task.progress.sources?[2].state == "dropped")
        // The dropped source was said, with what the download did instead.
        #expect(verified.notes.contains { $0.contains("404") && $0.hasSuffix("going on with the other mirrors") }, "\(verified.notes)")
        let reports = download.sourceReports()
        #expect(reports.count == 3)
        #expect(reports[1].badPieces >= 1 && reports[1].state != "active", "\(reports)")
        #expect(reports[2].state == "dropped" && reports[2].reason?.contains("404") == true, "\(reports)")
        #expect(reports[0].bytes > 0 && reports[1].bytes > 0, "both serving sources served bytes: \(reports)")
        _ = verified
    }

    @Test func withoutPieceHashesACorruptSourceFailsTheWholeFileHashAndNoFileIsLeft() async throws {
        let mirrors = try Mirrors()
        defer { mirrors.stop() }
        var hasher = ChecksumHasher(algorithm: .sha256)
        hasher.update(Pattern.bytes(count: Self.size, seed: 5))
        let policy = DownloadPolicy(expectedChecksum: try ExpectedChecksum(algorithm: .sha256, hex: hasher.finalizeHex()))
        let download = SegmentedDownload(
            destination: DownloadDestination(directory: mirrors.out.url, fileName: "f.bin"), policy: policy, connections: 6,
            mirrors: Array(mirrors.urls.dropFirst(1).prefix(1)), perSourceConnections: 3)

        let outcome = await Self.run(download, url: mirrors.urls[0])

        guard case .failure(.integrity(.checksumMismatch)) = outcome else {
            Issue.record("expected a checksum mismatch, got \(outcome)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: mirrors.out.file("f.bin").path))
        #expect(download.sourceReports()[1].bytes > 0, "the corrupt source was used")
    }

    @Test func aSourceWhoseLengthDiffersIsDroppedAndTheOthersEndTheFile() async throws {
        let mirrors = try Mirrors(corruptLength: true)
        defer { mirrors.stop() }
        let download = SegmentedDownload(
            destination: DownloadDestination(directory: mirrors.out.url, fileName: "f.bin"), connections: 4,
            mirrors: Array(mirrors.urls.dropFirst(1).prefix(1)), perSourceConnections: 2, pieceHashes: try Self.hashes())

        let outcome = await Self.run(download, url: mirrors.urls[0])

        let result = try outcome.get()
        #expect(try Data(contentsOf: try #require(result.fileURL)) == Pattern.bytes(count: Self.size, seed: 5))
        let mirror = download.sourceReports()[1]
        #expect(mirror.state == "dropped" && mirror.reason?.contains("not \(Self.size)") == true, "\(mirror)")
    }
}

/// `VerifiedLog` keeps the sets of checked pieces a download reported, and its notes.
final class VerifiedLog: Sendable {
    private let sets = Mutex<[Set<Int>]>([])
    private let said = Mutex<[String]>([])

    func record(_ pieces: Set<Int>) { sets.withLock { $0.append(pieces) } }

    func note(_ text: String) { said.withLock { $0.append(text) } }

    var notes: [String] { said.withLock { $0 } }

    var last: Set<Int> { sets.withLock { $0.last ?? [] } }
}
