import FerryTestSupport
import Foundation
import Testing
@testable import FerryKit

/// Downloads written without a `.part` (`CommitMark`): a small download with a known length
/// goes to an unnamed file that gets only its final name, carrying the mark a crash recovery
/// looks for; anything else keeps using the `.part`. Against the fault server.
@Suite(.serialized) struct UnnamedFileTests {
    let fault: FaultServer
    let out: TemporaryDirectory
    let mark = CommitMark(value: "77-5")

    init() throws {
        fault = try FaultServer.start()
        out = try TemporaryDirectory()
    }

    private var policy: DownloadPolicy {
        var policy = DownloadPolicy(checkpointInterval: nil)
        policy.keepsPartialNameAfterCommit = true
        policy.commitMark = mark
        return policy
    }

    private func markValue(_ url: URL) -> String? {
        CommitMark.value(at: url.path)
    }

    @Test func aSmallMarkedDownloadNeverHasAPartAndCarriesTheMark() async throws {
        defer { fault.stop(); out.remove() }
        let run = await DownloadRun.run(fault.url("/bytes/50000"), into: out.url, name: "f.bin", policy: policy)

        let result = try run.outcome.get()
        #expect(result.fileURL?.lastPathComponent == "f.bin")
        #expect(!result.partialNameKept)
        #expect(directoryListing(out.url) == ["f.bin"])
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: 50000))
        #expect(markValue(out.file("f.bin")) == "77-5")
        // The mode is the one any new file gets (0666 less the umask), as with a .part.
        var status = stat()
        #expect(stat(out.file("f.bin").path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o666 & ~FileModeMask.current)
    }

    @Test func aLargeOrUnknownLengthDownloadUsesThePart() async throws {
        defer { fault.stop(); out.remove() }
        let large = Int(CommitMark.unnamedFileLimit) + 1
        let big = await DownloadRun.run(fault.url("/bytes/\(large)"), into: out.url, name: "big.bin", policy: policy)
        let unknown = await DownloadRun.run(fault.url("/bytes/7000", query: ["no_length": "1"]), into: out.url, name: "u.bin", policy: policy)

        // Both went through their .part, still linked for the caller to remove, and no mark.
        #expect(try big.outcome.get().partialNameKept)
        #expect(try unknown.outcome.get().partialNameKept)
        #expect(directoryListing(out.url) == ["big.bin", "big.bin.part", "u.bin", "u.bin.part"])
        #expect(markValue(out.file("big.bin")) == nil)
        #expect(try SHA256Hex.of(file: out.file("big.bin")) == Pattern.sha256Hex(count: large))
    }

    @Test func aMarkedCommitNeverReplacesAFile() async throws {
        defer { fault.stop(); out.remove() }
        try Data("someone else's".utf8).write(to: out.file("f.bin"))

        let run = await DownloadRun.run(fault.url("/bytes/3000"), into: out.url, name: "f.bin", policy: policy)

        #expect(try run.outcome.get().fileURL?.lastPathComponent == "f.1.bin")
        #expect(directoryListing(out.url) == ["f.1.bin", "f.bin"])
        #expect(try Data(contentsOf: out.file("f.bin")) == Data("someone else's".utf8))
        #expect(try SHA256Hex.of(file: out.file("f.1.bin")) == Pattern.sha256Hex(count: 3000))
    }

    @Test func aDroppedUnnamedDownloadLeavesNothingAndStartsOver() async throws {
        defer { fault.stop(); out.remove() }
        let n = 600_000
        let url = fault.url("/bytes/\(n)", query: ["drop_after": "300000", "drop_times": "1", "key": "unnamed"])

        var policy = self.policy
        policy.keepsPartialNameAfterCommit = false
        let run = await DownloadRun.run(url, into: out.url, name: "f.bin", policy: policy)

        // The bytes of the dropped attempt had no name to resume from: the retry asked for
        // the whole file, nothing was ever reported durable, and the result is exact (the
        // retry, which has resume data, went through a .part, removed by its commit).
        #expect(run.error == nil)
        #expect(try fault.requests(prefix: "/bytes").map { $0.header("Range") } == [nil, nil])
        #expect(run.checkpoints.allSatisfy { $0.durableOffset == 0 })
        #expect(directoryListing(out.url) == ["f.bin"])
        #expect(try SHA256Hex.of(file: out.file("f.bin")) == Pattern.sha256Hex(count: n))
    }

    @Test func recoveryFindsTheFileWithTheMarkAmongTheNamesACommitTries() throws {
        defer { fault.stop(); out.remove() }
        // Given f.bin (someone's), f.1.bin with another task's mark, f.2.bin with ours.
        try Data("someone else's".utf8).write(to: out.file("f.bin"))
        let destination = DownloadDestination(directory: out.url, fileName: "f.bin")
        for (value, text) in [("77-6", "other task"), ("77-5", "ours")] {
            let file = try #require(PartialFile.createUnnamed(standingFor: destination.filePath(named: "f.bin"), mark: CommitMark(value: value)))
            try Data(text.utf8).withUnsafeBytes { try file.write($0) }
            _ = try file.commit(to: destination)
        }

        // When / Then ours is found, and nothing else is touched.
        #expect(destination.recoverMarkedFile(mark)?.lastPathComponent == "f.2.bin")
        #expect(try Data(contentsOf: out.file("f.2.bin")) == Data("ours".utf8))
        #expect(directoryListing(out.url) == ["f.1.bin", "f.2.bin", "f.bin"])
        // A mark that is on no file finds nothing.
        #expect(destination.recoverMarkedFile(CommitMark(value: "77-7")) == nil)
    }

    @Test func recoveryNeverFollowsASymlink() throws {
        defer { fault.stop(); out.remove() }
        // Given f.bin, a symlink to a file elsewhere that carries our mark.
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let target = DownloadDestination(directory: elsewhere.url, fileName: "x")
        let file = try #require(PartialFile.createUnnamed(standingFor: target.filePath(named: "x"), mark: mark))
        _ = try file.commit(to: target)
        #expect(symlink(elsewhere.file("x").path, out.file("f.bin").path) == 0)

        // When / Then the symlink is not the committed file.
        #expect(DownloadDestination(directory: out.url, fileName: "f.bin").recoverMarkedFile(mark) == nil)
    }
}

/// The reserve of unnamed files the completion thread makes ahead (`UnnamedFileReserve`).
@Suite struct UnnamedFileReserveTests {
    /// A clock moved by hand.
    final class HandClock: MonotonicClock, @unchecked Sendable {
        // Read and moved on the test's thread only.
        var seconds = 100.0
        func now() -> Double { seconds }
    }

    @Test func filesAreMadeOnlyWhereFilesWereNamedAndUpToTheCapacity() throws {
        let out = try TemporaryDirectory()
        let other = try TemporaryDirectory()
        defer { out.remove(); other.remove() }
        let reserve = UnnamedFileReserve(clock: HandClock())
        defer { reserve.removeAll() }

        #expect(reserve.take(directory: out.url.path) == nil)
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 0)
        for _ in 0..<(UnnamedFileReserve.capacity + 8) {
            reserve.used(out.url.path)
        }
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == UnnamedFileReserve.capacity)
        #expect(reserve.readyCount(in: other.url.path) == 0)
        // Unnamed: nothing shows in the directory.
        #expect(directoryListing(out.url).isEmpty)
        let fd = try #require(reserve.take(directory: out.url.path))
        #expect(fd >= 0)
        close(fd)
        #expect(reserve.readyCount(in: out.url.path) == UnnamedFileReserve.capacity - 1)
    }

    @Test func aReserveThatRanDryGrowsByTheTakesThatFoundNone() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let reserve = UnnamedFileReserve(clock: HandClock())
        defer { reserve.removeAll() }
        reserve.used(out.url.path)
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 1)

        // Two downloads start before the next turn: the second finds none ready.
        let first = try #require(reserve.take(directory: out.url.path))
        close(first)
        #expect(reserve.take(directory: out.url.path) == nil)
        reserve.used(out.url.path)
        reserve.used(out.url.path)
        reserve.replenish()

        // The two named get successors, and one more for the take that found none.
        #expect(reserve.readyCount(in: out.url.path) == 3)
        reserve.used(out.url.path)
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 4)
    }

    @Test func noMoreFilesAreMadeThanTheEngineHoldsTransfers() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let reserve = UnnamedFileReserve(clock: HandClock())
        defer { reserve.removeAll() }
        // Given ten files named, while the engine holds three transfers.
        reserve.expectTransfers(3)
        for _ in 0..<10 { reserve.used(out.url.path) }

        // Then three are made; with none held, no more.
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 3)
        reserve.expectTransfers(0)
        for _ in 0..<10 { reserve.used(out.url.path) }
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 3)
    }

    @Test func aFileThatWaitedTooLongIsClosedNotHandedOut() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let clock = HandClock()
        let reserve = UnnamedFileReserve(clock: clock)
        defer { reserve.removeAll() }
        reserve.used(out.url.path)
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 1)
        clock.seconds += UnnamedFileReserve.maximumAge + 1
        #expect(reserve.take(directory: out.url.path) == nil)
        #expect(reserve.readyCount(in: out.url.path) == 0)
    }

    @Test func aFileTakenFromTheReserveGetsItsOwnMarkWhenNamed() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let reserve = UnnamedFileReserve()
        defer { reserve.removeAll() }
        reserve.used(out.url.path)
        reserve.replenish()
        let taken = try #require(PartialFile.createUnnamed(
            standingFor: out.file("b.bin").path, mark: CommitMark(value: "1-2"), reserve: reserve))
        #expect(reserve.readyCount(in: out.url.path) == 0)
        let bytes = Pattern.bytes(count: 4000)
        let written = bytes.withUnsafeBytes { buffer in (try? taken.write(buffer)) != nil }
        #expect(written)
        let destination = DownloadDestination(directory: out.url, fileName: "b.bin")
        #expect(GroupSync.synchronize([taken]) == [nil])
        _ = try taken.commit(to: destination)

        #expect(directoryListing(out.url) == ["b.bin"])
        #expect(CommitMark.value(at: out.file("b.bin").path) == "1-2")
        #expect(try SHA256Hex.of(file: out.file("b.bin")) == Pattern.sha256Hex(count: 4000))
        var status = stat()
        #expect(stat(out.file("b.bin").path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o666 & ~FileModeMask.current)
        // Named: the next replenish makes its successor.
        reserve.replenish()
        #expect(reserve.readyCount(in: out.url.path) == 1)
    }

    @Test func aSmallFilesBytesWaitInMemoryUntilItIsMadeDurable() throws {
        // Given an unnamed file told to expect 40,000 bytes.
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let file = try #require(PartialFile.createUnnamed(standingFor: out.file("h.bin").path, mark: CommitMark(value: "3-4")))
        file.holdBytes(expecting: 40_000)
        func sizeOnDisk() -> Int64 {
            var status = stat()
            return fstat(file.descriptor, &status) == 0 ? Int64(status.st_size) : -1
        }

        // When its bytes come in two parts.
        let bytes = Pattern.bytes(count: 40_000)
        for part in [bytes[0..<25_000], bytes[25_000...]] {
            let written = part.withUnsafeBytes { buffer in (try? file.write(buffer)) != nil }
            #expect(written)
        }

        // Then they are counted but not written yet; made durable, they are on the disk, and the
        // file is named byte-exact.
        #expect(file.length == 40_000)
        #expect(sizeOnDisk() == 0)
        #expect(GroupSync.synchronize([file]) == [nil])
        #expect(sizeOnDisk() == 40_000)
        _ = try file.commit(to: DownloadDestination(directory: out.url, fileName: "h.bin"))
        #expect(try SHA256Hex.of(file: out.file("h.bin")) == Pattern.sha256Hex(count: 40_000))
    }

    @Test func moreBytesThanAnnouncedAreWrittenAfterThoseHeldAndLargeFilesHoldNone() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        // Given a file told to expect 1,000 bytes that gets 3,000.
        let file = try #require(PartialFile.createUnnamed(standingFor: out.file("m.bin").path, mark: CommitMark(value: "5-6")))
        file.holdBytes(expecting: 1_000)
        let bytes = Pattern.bytes(count: 3_000)
        for part in [bytes[0..<1_000], bytes[1_000...]] {
            let written = part.withUnsafeBytes { buffer in (try? file.write(buffer)) != nil }
            #expect(written)
        }
        // Then all of them are in the file, in order.
        _ = try file.commit(to: DownloadDestination(directory: out.url, fileName: "m.bin"))
        #expect(try SHA256Hex.of(file: out.file("m.bin")) == Pattern.sha256Hex(count: 3_000))
        // And a file above the limit keeps nothing in memory.
        #expect(HeldBytes(capacity: Int(HeldBytes.limit) + 1) == nil)
        #expect(HeldBytes(capacity: Int(HeldBytes.limit)) != nil)
    }

    @Test func manySmallDownloadsInOneDirectoryAllCarryTheirMark() async throws {
        let fault = try FaultServer.start()
        let out = try TemporaryDirectory()
        defer { fault.stop(); out.remove() }
        var policy = DownloadPolicy(checkpointInterval: nil)
        policy.commitMark = CommitMark(value: "9-9")
        // One after another on one session: after the first, each takes a file made ahead.
        let session = SessionManager()
        defer { session.invalidate() }
        for index in 0..<6 {
            let run = await DownloadRun.run(fault.url("/bytes/\(1000 + index)"), into: out.url, name: "f\(index)",
                                            policy: policy, session: session)
            _ = try run.outcome.get()
        }
        #expect(directoryListing(out.url) == (0..<6).map { "f\($0)" })
        for index in 0..<6 {
            #expect(CommitMark.value(at: out.file("f\(index)").path) == "9-9")
            #expect(try SHA256Hex.of(file: out.file("f\(index)")) == Pattern.sha256Hex(count: 1000 + index))
        }
    }

    @Test func aFileWhoseBytesAreHeldIsMadeOnlyWhereFilesWereNamedAndOnlyWhenWritten() throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let reserve = UnnamedFileReserve()
        defer { reserve.removeAll() }
        // Where no unnamed file was named yet, nothing is put off.
        #expect(PartialFile.deferredUnnamed(standingFor: out.file("d.bin").path, mark: CommitMark(value: "8-1"),
                                            reserve: reserve, length: 5_000) == nil)
        reserve.used(out.url.path)
        // Too large to hold: made at once, as before.
        #expect(PartialFile.deferredUnnamed(standingFor: out.file("d.bin").path, mark: CommitMark(value: "8-1"),
                                            reserve: reserve, length: HeldBytes.limit + 1) == nil)

        // Given a file put off: no descriptor until its bytes are written.
        let file = try #require(PartialFile.deferredUnnamed(standingFor: out.file("d.bin").path, mark: CommitMark(value: "8-1"),
                                                            reserve: reserve, length: 5_000))
        let bytes = Pattern.bytes(count: 5_000)
        let written = bytes.withUnsafeBytes { buffer in (try? file.write(buffer)) != nil }
        #expect(written)
        #expect(file.descriptor < 0 && file.length == 5_000)

        // When it is made durable and named, then it is there, byte-exact, with its mark and mode.
        #expect(GroupSync.synchronize([file]) == [nil])
        #expect(file.descriptor >= 0)
        _ = try file.commit(to: DownloadDestination(directory: out.url, fileName: "d.bin"))
        #expect(directoryListing(out.url) == ["d.bin"])
        #expect(CommitMark.value(at: out.file("d.bin").path) == "8-1")
        #expect(try SHA256Hex.of(file: out.file("d.bin")) == Pattern.sha256Hex(count: 5_000))
        var status = stat()
        #expect(stat(out.file("d.bin").path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o666 & ~FileModeMask.current)
    }

    @Test func aFileHeldForADirectoryThatWentAwayFailsAndTheDirectoryIsForgotten() throws {
        let parent = try TemporaryDirectory()
        defer { parent.remove() }
        let gone = parent.file("gone")
        #expect(mkdir(gone.path, 0o755) == 0)
        let reserve = UnnamedFileReserve()
        defer { reserve.removeAll() }
        reserve.used(gone.path)
        let file = try #require(PartialFile.deferredUnnamed(standingFor: gone.appendingPathComponent("g.bin").path,
                                                            mark: CommitMark(value: "8-2"), reserve: reserve, length: 100))
        let written = Pattern.bytes(count: 100).withUnsafeBytes { buffer in (try? file.write(buffer)) != nil }
        #expect(written)

        // When the directory is removed before the bytes are written.
        #expect(rmdir(gone.path) == 0)

        // Then the sync reports the failure to make the file, and later downloads there make
        // their files at once again.
        let errors = GroupSync.synchronize([file])
        #expect(errors.count == 1 && errors[0] != nil)
        #expect(!reserve.hasNamed(in: gone.path))
        #expect(throws: FerryError.self) { _ = try file.commit(to: DownloadDestination(directory: gone, fileName: "g.bin")) }
    }
}
