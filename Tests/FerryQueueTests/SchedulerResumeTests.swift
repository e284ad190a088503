@testable import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// The `Scheduler`'s default `ResumableDownloadDelegateFactory` against a real nginx: a task
/// resumes from its journal record, and a file committed before a crash is not fetched again.
@Suite(.serialized) struct SchedulerResumeTests {
    private func configuration(_ directory: String) -> SchedulerConfiguration {
        SchedulerConfiguration(defaultDirectory: directory, retryPolicy: RetryPolicy(retryLimit: 2, baseDelay: 0.05, maximumDelay: 0.2),
                               pollInterval: .milliseconds(200))
    }

    private func task(_ url: URL, into directory: String, name: String, checksum: Checksum? = nil) throws -> NewTask {
        NewTask(spec: TaskSpec(urls: [try TransferURL(validating: url.absoluteString)], destinationDirectory: directory,
                               requestedName: name, checksum: checksum))
    }

    /// nginx's strong ETag of a static file: `"<mtime hex>-<size hex>"`.
    private func nginxETag(_ file: URL) throws -> String {
        var status = stat()
        try #require(stat(file.path, &status) == 0)
        return "\"" + String(status.st_mtim.tv_sec, radix: 16) + "-" + String(status.st_size, radix: 16) + "\""
    }

    @Test func aTaskResumesFromItsJournalRecordWithARange() async throws {
        // Given a task whose record says 300 000 bytes are durable, and a .part with those
        // bytes followed by untrusted garbage.
        let size = 1_000_000
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: size, seed: 5)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var part = Pattern.bytes(count: size, seed: 5).prefix(300_000)
        part.append(Data(repeating: 0xEE, count: 5_000))
        try part.write(to: URL(fileURLWithPath: "\(out)/f.bin.part"))
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let id = try journal.insert(task(nginx.url("/f.bin"), into: out, name: "f.bin",
                                         checksum: Checksum(algorithm: .sha256, hex: Pattern.sha256Hex(count: size, seed: 5))))
        try journal.recordCheckpoint(id, ResumeRecord(etag: try nginxETag(www.file("f.bin")), totalLength: Int64(size), durableOffset: 300_000))
        let scheduler = Scheduler(journal: journal, configuration: configuration(out))

        // When the scheduler runs it.
        await scheduler.run(untilIdle: true)

        // Then it asked only for the rest, with If-Range, and the file is byte-exact.
        #expect(try journal.task(id)?.state == .done)
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/f.bin")) == Pattern.sha256Hex(count: size, seed: 5))
        #expect(directoryListing(URL(fileURLWithPath: out)) == ["f.bin"])
        let log = nginx.accessLog()
        // (nginx writes the quotes of the If-Range ETag as \x22.)
        #expect(log.contains("GET /f.bin 206 700000 \"bytes=300000-\" \"\\x22"), "\(log)")
        #expect(!log.contains(" 200 "), "\(log)")
    }

    @Test func aFileCommittedBeforeACrashIsDoneWithoutARequest() async throws {
        // Given f.bin (another file) and a crash between the commit's link to f.1.bin and the
        // removal of the .part: the task is still `running` in the journal.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 50_000, seed: 2)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: "\(out)/f.bin"))
        try Pattern.bytes(count: 50_000, seed: 2).write(to: URL(fileURLWithPath: "\(out)/f.bin.part"))
        #expect(link("\(out)/f.bin.part", "\(out)/f.1.bin") == 0)
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let id = try journal.insert(task(nginx.url("/f.bin"), into: out, name: "f.bin"))
        #expect(try journal.markRunning([id]) == [id])
        // The .part carries its task's owner mark, as every .part the queue makes does.
        let owner = try #require(ResumableDownloadDelegateFactory(journal: journal).commitMark(for: id))
        let part = open("\(out)/f.bin.part", O_RDWR)
        #expect(PartOwnership.mark(part, with: owner) == 0)
        close(part)
        let scheduler = Scheduler(journal: journal, configuration: configuration(out))

        // When the scheduler runs again.
        await scheduler.run(untilIdle: true)

        // Then the task is done at f.1.bin, nothing was fetched, no copy nor .part exists.
        let record = try #require(try journal.task(id))
        #expect(record.state == .done)
        #expect(record.finalPath == "\(out)/f.1.bin")
        #expect(directoryListing(URL(fileURLWithPath: out)) == ["f.1.bin", "f.bin"])
        #expect(!nginx.accessLog().contains("/f.bin"))
        #expect(await scheduler.summary.completed == 1)
    }

    @Test func aFileCommittedWithoutAPartBeforeACrashIsDoneWithoutARequest() async throws {
        // Given f.bin (another file), and a small download of the task written without a .part
        // and committed to f.2.bin with the task's mark; then a crash before the record: the
        // task is still `running`. Before it, f.1.bin, marked by another task of the same journal.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 20_000, seed: 3)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: "\(out)/f.bin"))
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let id = try journal.insert(task(nginx.url("/f.bin"), into: out, name: "f.bin"))
        let other = try journal.insert(task(nginx.url("/f.bin"), into: out, name: "g.bin"))
        let factory = ResumableDownloadDelegateFactory(journal: journal)
        let destination = DownloadDestination(directory: URL(fileURLWithPath: out), fileName: "f.bin")
        // The other task's file was committed first (f.1.bin), ours next (f.2.bin).
        for (owner, bytes) in [(other, Data("other".utf8)), (id, Pattern.bytes(count: 20_000, seed: 3))] {
            let mark = try #require(factory.commitMark(for: owner))
            let file = try #require(PartialFile.createUnnamed(standingFor: destination.filePath(named: "f.bin"), mark: mark))
            try bytes.withUnsafeBytes { try file.write($0) }
            _ = try file.commit(to: destination)
        }
        #expect(try journal.markRunning([id]) == [id])
        let scheduler = Scheduler(journal: journal, configuration: configuration(out))
        try journal.updateStates([other], to: .paused)

        // When the scheduler runs again.
        await scheduler.run(untilIdle: true)

        // Then the task is done at the file with its own mark (f.2.bin; f.1.bin carries the
        // other task's), nothing was fetched, and nothing else appeared.
        let record = try #require(try journal.task(id))
        #expect(record.state == .done)
        #expect(record.finalPath == "\(out)/f.2.bin")
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/f.2.bin")) == Pattern.sha256Hex(count: 20_000, seed: 3))
        #expect(directoryListing(URL(fileURLWithPath: out)) == ["f.1.bin", "f.2.bin", "f.bin"])
        #expect(!nginx.accessLog().contains("/f.bin"))
    }

    @Test func aFirstRunWritesSmallFilesWithoutAPartAndRetriesWithOne() async throws {
        // Given two small files, one of them served only after a first failure.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("a.bin"), count: 30_000, seed: 4)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let first = try journal.insert(task(nginx.url("/a.bin"), into: out, name: "a.bin"))
        let later = try journal.insert(task(nginx.url("/b.bin"), into: out, name: "b.bin"))
        let scheduler = Scheduler(journal: journal, configuration: configuration(out))

        // When the queue runs (b.bin is missing: 404, failed), then b.bin appears and is retried.
        await scheduler.run(untilIdle: true)
        try Pattern.writeFile(at: www.file("b.bin"), count: 40_000, seed: 5)
        #expect(try journal.updateStates([later], to: .queued) == [later])
        await scheduler.run(untilIdle: true)

        // Then both are done and exact, and no .part is left; the first carries its mark (it
        // never had a .part), the retried one does not (it ran before, so it used one).
        let factory = ResumableDownloadDelegateFactory(journal: journal)
        #expect(try journal.task(first)?.state == .done)
        #expect(try journal.task(later)?.state == .done)
        #expect(directoryListing(URL(fileURLWithPath: out)) == ["a.bin", "b.bin"])
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/a.bin")) == Pattern.sha256Hex(count: 30_000, seed: 4))
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/b.bin")) == Pattern.sha256Hex(count: 40_000, seed: 5))
        #expect(CommitMark.value(at: "\(out)/a.bin") == factory.commitMark(for: first)?.value)
        #expect(CommitMark.value(at: "\(out)/b.bin") == nil)
    }

    @Test func everyQueueChecksumConvertsForTheDelegate() throws {
        // Given a task with a checksum of every algorithm the queue accepts.
        let state = try TemporaryDirectory()
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let factory = ResumableDownloadDelegateFactory(journal: journal)
        #expect(factory.verifiesChecksum)
        for algorithm in Checksum.Algorithm.allCases {
            let checksum = try Checksum(algorithm: algorithm, hex: String(repeating: "a", count: algorithm.hexLength))
            let id = try journal.insert(task(try #require(URL(string: "http://127.0.0.1/x")), into: state.path, name: "x", checksum: checksum))
            let record = try #require(try journal.task(id))

            // When the factory makes its delegate.
            let delegate = factory.makeDelegate(for: record, destination: DownloadDestination(directory: URL(fileURLWithPath: state.path), fileName: "x"))

            // Then the delegate's policy checks the same digest.
            let policy = try #require((delegate as? ResumableDownloadDelegate)?.policy)
            #expect(policy.expectedChecksum?.description == checksum.description)
        }
    }

    @Test func resumeRecordsAndResumeDataMapBothWays() throws {
        // Given resume data with every field.
        let data = ResumeData(finalURL: URL(string: "https://example.com/a/b.bin"), etag: "\"e1\"", lastModified: "Mon, 02 Jan 2023 03:04:05 GMT",
                              totalLength: 1_000, durableOffset: 400)
        // When it becomes a record and back, then nothing is lost.
        #expect(ResumeRecord(data).resumeData == data)
        // And a record with no durable byte resumes nothing.
        #expect(ResumeRecord(etag: "\"e1\"", totalLength: 1_000, durableOffset: 0).resumeData == nil)
    }
}
