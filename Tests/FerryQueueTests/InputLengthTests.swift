import Testing
@testable import FerryQueue

/// A task's URL and header fields are bounded in length, and its headers in number.
struct InputLengthTests {
    @Test func aURLUpTo64KiBIsTakenAndALongerOneRefused() throws {
        let base = "https://example.com/"
        let fits = base + String(repeating: "a", count: TransferURL.maximumLength - base.utf8.count)
        #expect(try TransferURL(validating: fits).string == fits)
        #expect(throws: QueueError.self) { try TransferURL(validating: fits + "a") }
    }

    @Test func aHeaderFieldUpTo16KiBIsTakenAndALongerOneRefused() throws {
        let fits = String(repeating: "v", count: HeaderField.maximumLength - "X-A".utf8.count)
        #expect(try HeaderField(name: "X-A", value: fits).value == fits)
        #expect(throws: QueueError.self) { try HeaderField(name: "X-A", value: fits + "v") }
        #expect(throws: QueueError.self) { try HeaderField(parsing: "X-A: " + fits + "v") }
    }

    @Test func theJournalRefusesATaskWithMoreThan100Headers() throws {
        let directory = try TemporaryDirectory()
        let journal = try Journal.open(at: directory.path + "/journal.sqlite").journal
        defer { try? journal.close() }
        let url = try TransferURL(validating: "https://example.com/f")
        let headers = try (0..<HeaderField.maximumCount).map { index throws(QueueError) in try HeaderField(name: "X-\(index)", value: "v") }
        let extra = try HeaderField(name: "X-Extra", value: "v")
        #expect(throws: QueueError.self) { try journal.insert(NewTask(spec: TaskSpec(urls: [url], headers: headers + [extra]))) }
        #expect(try journal.tasks(in: nil, limit: 10).isEmpty)
        _ = try journal.insert(NewTask(spec: TaskSpec(urls: [url], headers: headers)))
        #expect(try journal.tasks(in: nil, limit: 10).count == 1)
    }
}
