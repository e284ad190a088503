import FerryQueue
import FerryTestSupport
import Foundation
import Testing
@testable import FerryTUI

/// A finished download is shown with its size and a full bar, even when no checkpoint
/// recorded its length (a short `ferry get`).
@Suite struct FinishedRowTests {
    @Test func aDoneRowOfUnknownTotalIsComplete() {
        let row = Fixtures.row(1, "small1.dat", .done)
        #expect(row.fraction == 1)
        let state = Fixtures.state(width: 80, height: 10, rows: [row])
        let line = Fixtures.render(state)[2]
        #expect(line.contains("━━━━━━━━━━━━━━"))
        #expect(line.contains("100%"))
    }

    @Test func aDoneDownloadWithoutARecordedLengthShowsItsFilesSize() throws {
        // Given a download recorded done with its final path but no length (as an older `ferry get` left it)
        let harness = try ControllerHarness { journal, directory in
            let id = try journal.insert(ControllerHarness.download("http://127.0.0.1:9/small1.dat", in: directory.path))
            try journal.updateState(id, to: .running)
            try Data(count: 3 << 20).write(to: directory.file("small1.dat"))
            try journal.recordFinalPath(id, directory.file("small1.dat").path)
            try journal.updateState(id, to: .done)
        }
        // When it is listed
        #expect(harness.waitUntil { $0.row(named: "small1.dat") != nil })
        // Then its size is the file's and it is complete
        let row = try #require(harness.row(named: "small1.dat"))
        #expect(row.bytesTotal == 3 << 20 && row.bytesDone == 3 << 20 && row.fraction == 1)
        let line = try #require(Renderer.render(harness.state).lines().first { $0.hasPrefix("✓ small1.dat") })
        #expect(line.contains("3.0 MiB"))
        #expect(line.contains("100%"))
    }

    @Test func recordLengthKeepsTheValidators() throws {
        let directory = try TemporaryDirectory(prefix: "ferry-length")
        defer { directory.remove() }
        let journal = try Journal.open(at: directory.file("journal.sqlite").path).journal
        defer { try? journal.close() }
        let id = try journal.insert(ControllerHarness.download("http://127.0.0.1:9/a", in: directory.path))
        try journal.recordCheckpoint(id, ResumeRecord(etag: "\"e\"", durableOffset: 5))
        try journal.recordLength(id, 42)
        let record = try #require(try journal.task(id))
        #expect(record.resume.totalLength == 42 && record.resume.durableOffset == 42 && record.resume.etag == "\"e\"")
    }
}
