import FerryTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    /// The rows `ferry list` shows for five.bin.
    static func rows(_ f: Fixture) throws -> [Substring] {
        let listed = try runFerry(["list"], stateDirectory: f.state.url)
        return listed.stdout.split(separator: "\n").filter { $0.contains("five.bin") }
    }

    // Items 2 and 17: a wrong checksum stays with the run that gave it; a rerun without a
    // checksum, or with the right one, takes its own and reuses the same row.
    @Test(arguments: cases)
    func aWrongChecksumDoesNotOutliveItsRun(_ connections: Int, _ algorithm: Algorithm) throws {
        let f = try Fixture(size: 300_000)
        defer { f.remove() }
        let wrong = f.checksum(algorithm, of: Data("other".utf8))
        let wrongHex = String(wrong.split(separator: "=")[1])

        // Given a run with a wrong checksum, which fails with status 3.
        let failed = try f.get(["-x", "\(connections)", "--min-split-size", "1M", "--checksum", wrong])
        #expect(failed.exitStatus == 3, "\(failed.stderr)")
        #expect(failed.stderr.contains(wrongHex), "\(failed.stderr)")

        // When the same command runs without a checksum, then (fresh) with the right one.
        let without = try f.get(["-x", "\(connections)", "--min-split-size", "1M"])

        // Then it succeeds, never naming the earlier value, with one row in the list.
        #expect(without.exitStatus == 0, "\(without.stderr)")
        #expect(!without.stderr.contains(wrongHex), "\(without.stderr)")
        #expect(try Data(contentsOf: f.saved) == f.bytes)
        let rowsf = try Self.rows(f)
        #expect(rowsf.count == 1, "\(rowsf)")

        let g = try Fixture(size: 300_000)
        defer { g.remove() }
        let again = try g.get(["-x", "\(connections)", "--min-split-size", "1M", "--checksum", g.checksum(algorithm, of: Data("other".utf8))])
        #expect(again.exitStatus == 3, "\(again.stderr)")
        let right = try g.get(["-x", "\(connections)", "--min-split-size", "1M", "--checksum", g.checksum(algorithm)])
        #expect(right.exitStatus == 0, "\(right.stderr)")
        #expect(!right.stderr.contains(wrongHex), "\(right.stderr)")
        #expect(try Data(contentsOf: g.saved) == g.bytes)
        let rowsg = try Self.rows(g)
        #expect(rowsg.count == 1, "\(rowsg)")
    }

    enum Change: String, CaseIterable, Sendable { case replaced, truncated, deleted }

    // Item 3: "already saved" only for the file Ferry wrote; a changed one is fetched again
    // (beside it, NAME.1.ext, when it is still there), and a checksum is checked on the file.
    @Test(arguments: [Change.replaced, .truncated, .deleted], [1, 4])
    func aChangedFileIsNotAlreadySaved(_ change: Change, _ connections: Int) throws {
        let f = try Fixture(size: 300_000)
        defer { f.remove() }
        let options = ["-x", "\(connections)", "--min-split-size", "100K"]
        // Given a finished download.
        let first = try f.get(options + ["--checksum", f.checksum(.sha256)])
        #expect(first.exitStatus == 0, "\(first.stderr)")

        // When its file is changed on disk and the same command runs again.
        switch change {
        case .replaced: try Data(repeating: 0x5A, count: f.bytes.count).write(to: f.saved)
        case .truncated: try f.bytes.prefix(1_000).write(to: f.saved)
        case .deleted: try FileManager.default.removeItem(at: f.saved)
        }
        let changed = (try? Data(contentsOf: f.saved)) ?? Data()
        let again = try f.get(options + ["--checksum", f.checksum(.md5)])

        // Then it downloads again: into five.bin when it was deleted, else beside the other file.
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("already saved"), "\(again.stderr)")
        if change == .deleted {
            #expect(try Data(contentsOf: f.saved) == f.bytes)
        } else {
            #expect(try Data(contentsOf: f.saved) == changed, "a file Ferry did not write is never overwritten")
            #expect(try Data(contentsOf: f.out.file("five.1.bin")) == f.bytes)
        }
        let rowsf = try Self.rows(f)
        #expect(rowsf.count == 1, "\(rowsf)")
    }

    // Item 3: the file's identity as Ferry named it is recorded: another file of the same
    // length put in its place with the same modification time (as `cp -p`, `rsync -t` or
    // `tar x` leave one) is not "already saved", even without a checksum.
    @Test func aSameLengthFileWithTheOldTimeInItsPlaceIsNotAlreadySaved() throws {
        let f = try Fixture(size: 300_000)
        defer { f.remove() }
        // Given a finished download.
        let first = try f.get([])
        #expect(first.exitStatus == 0, "\(first.stderr)")
        var original = stat()
        try #require(lstat(f.saved.path, &original) == 0)

        // When another file of the same length, carrying the first one's modification time,
        // is renamed over it and the same command runs again.
        let other = f.out.file("other.tmp")
        try Data(repeating: 0x5A, count: f.bytes.count).write(to: other)
        var times = [original.st_atim, original.st_mtim]
        try #require(utimensat(AT_FDCWD, other.path, &times, 0) == 0)
        try #require(rename(other.path, f.saved.path) == 0)
        let again = try f.get([])

        // Then it is fetched again beside that file, which stays as it is.
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("already saved"), "\(again.stderr)")
        #expect(try Data(contentsOf: f.saved) == Data(repeating: 0x5A, count: f.bytes.count))
        #expect(try Data(contentsOf: f.out.file("five.1.bin")) == f.bytes)

        // And a third run, with the file Ferry wrote in place, says it is already saved.
        let third = try f.get([])
        #expect(third.exitStatus == 0 && third.stderr.contains("already saved"), "\(third.stderr)")
    }

    // Item 3: a checksum is verified against the saved file before "already saved".
    @Test(arguments: cases)
    func alreadySavedChecksTheGivenChecksum(_ connections: Int, _ algorithm: Algorithm) throws {
        let f = try Fixture(size: 300_000)
        defer { f.remove() }
        let options = ["-x", "\(connections)", "--min-split-size", "100K"]
        #expect(try f.get(options).exitStatus == 0)

        // The right checksum: already saved, nothing fetched.
        let right = try f.get(options + ["--checksum", f.checksum(algorithm)])
        #expect(right.exitStatus == 0, "\(right.stderr)")
        #expect(right.stderr.contains("already saved"), "\(right.stderr)")

        // A wrong one: never exit 0, never "already saved".
        let wrong = try f.get(options + ["--checksum", f.checksum(algorithm, of: Data("other".utf8))])
        #expect(wrong.exitStatus == 3, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("already saved"), "\(wrong.stderr)")
        #expect(try Data(contentsOf: f.saved) == f.bytes)
    }

    // Items 2 and 3 for `get -i`: an entry's checksum belongs to the run whose list gives it,
    // and an entry whose saved file changed is fetched again, beside it.
    @Test func aListEntryTakesItsOwnChecksumAndAChangedFileIsFetchedAgain() throws {
        let f = try Fixture(size: 300_000)
        defer { f.remove() }
        let list = f.state.file("list.txt")
        func run(checksum: String) throws -> ProcessResult {
            try Data("\(f.url)\n  checksum=\(checksum)\n".utf8).write(to: list)
            return try runFerry(["get", "--retries", "0", "-d", f.out.path, "-i", list.path], stateDirectory: f.state.url)
        }
        let wrong = f.checksum(.sha256, of: Data("other".utf8))
        let wrongHex = String(wrong.split(separator: "=")[1])

        // Given a run whose list gives a wrong checksum (status 3).
        let failed = try run(checksum: wrong)
        #expect(failed.exitStatus == 3, "\(failed.stderr)")

        // When the list gives the right one, the entry succeeds without naming the old value.
        let right = try run(checksum: f.checksum(.md5))
        #expect(right.exitStatus == 0, "\(right.stderr)")
        #expect(!right.stderr.contains(wrongHex), "\(right.stderr)")
        #expect(try Data(contentsOf: f.saved) == f.bytes)

        // And when the saved file is replaced, the next run fetches it again beside it.
        try Data(repeating: 0x5A, count: f.bytes.count).write(to: f.saved)
        let again = try run(checksum: f.checksum(.sha256))
        #expect(again.exitStatus == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("already saved"), "\(again.stderr)")
        #expect(try Data(contentsOf: f.out.file("five.1.bin")) == f.bytes)
        let rows = try Self.rows(f)
        #expect(rows.count == 1, "\(rows)")
    }
}
