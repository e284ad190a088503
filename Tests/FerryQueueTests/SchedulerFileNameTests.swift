import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Testing

/// The `Scheduler` gives a download that never ran a name whose `.part` and final file are
/// free, records it, and writes under it on every later start.
@Suite(.serialized) struct SchedulerFileNameTests {
    @Test func aNewTaskNeitherAdoptsNorDeletesAPartItDidNotMakeAndKeepsTheNameItTook() async throws {
        // Given f.bin.part left by someone else in the download directory, and a task for f.bin.
        let www = try FerryTestSupport.TemporaryDirectory(worldReadable: true)
        let state = try TemporaryDirectory()
        defer { www.remove() }
        try Pattern.writeFile(at: www.file("f.bin"), count: 200_000, seed: 9)
        let nginx = try NginxServer.start(root: www.url)
        defer { nginx.stop() }
        let out = state.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("someone else's partial file".utf8).write(to: URL(fileURLWithPath: "\(out)/f.bin.part"))
        let journal = try Journal.open(at: state.file("journal.sqlite")).journal
        let id = try journal.insert(NewTask(spec: TaskSpec(urls: [try TransferURL(validating: nginx.url("/f.bin").absoluteString)],
                                                           destinationDirectory: out, requestedName: "f.bin")))
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: out))

        // When the scheduler runs it.
        await scheduler.run(untilIdle: true)

        // Then it took the next free name, recorded it, and left the other .part alone.
        let task = try #require(try journal.task(id))
        #expect(task.state == .done)
        #expect(task.fileName == "f.1.bin")
        #expect(task.finalPath == "\(out)/f.1.bin")
        #expect(try SHA256Hex.of(file: URL(fileURLWithPath: "\(out)/f.1.bin")) == Pattern.sha256Hex(count: 200_000, seed: 9))
        #expect(try String(contentsOfFile: "\(out)/f.bin.part", encoding: .utf8) == "someone else's partial file")
        #expect(directoryListing(URL(fileURLWithPath: out)) == ["f.1.bin", "f.bin.part"])
    }
}
