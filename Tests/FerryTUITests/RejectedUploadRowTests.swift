import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Testing
@testable import FerryTUI

/// A queued upload the server rejected, as the table and the detail pane show it: what was
/// sent, and the server's explanation in the last error.
struct RejectedUploadRowTests {
    @Test func aRejectedUploadShowsWhatWasSentAndTheServersExplanation() throws {
        // Given an upload recorded failed after 4096 bytes with the start of the server's reply.
        let directory = try TemporaryDirectory(prefix: "ferry-tui-upload")
        defer { directory.remove() }
        let journal = try Journal.open(at: directory.file("journal.sqlite").path).journal
        defer { try? journal.close() }
        let spec = TaskSpec(urls: [try TransferURL(validating: "http://127.0.0.1:9/in")], upload: UploadSpec(bodyFile: "/in/body.bin"))
        let id = try journal.insert(NewTask(spec: spec))
        _ = try journal.markRunning([id])
        let message = "server answered 413 Request Entity Too Large: quota exceeded, at most 1 MiB"
        _ = try journal.recordOutcomes([AttemptOutcome(id: id, state: .failed, message: message, length: 4096)])
        let record = try #require(try journal.task(id))

        // When it is made into a row and its details.
        let row = TaskRow(record: record)
        let lines = DetailView.lines(for: row)

        // Then the row counts the bytes sent, and the pane says so and gives the explanation.
        #expect(row.bytesDone == 4096)
        #expect(row.bytesTotal == nil)
        #expect(lines.first { $0.label == "Bytes" }?.value == "4.0 KiB sent")
        #expect(lines.first { $0.label == "Last error" }?.value == message)
    }
}
