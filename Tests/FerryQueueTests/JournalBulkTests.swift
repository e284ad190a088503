import Testing
@testable import FerryQueue

@Suite struct JournalBulkTests {
    @Test func insertsOneHundredThousandTasksInOneBatch() throws {
        // Given 100,000 downloads with a header each
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let header = try HeaderField(parsing: "Referer: https://example.com/")
        let tasks = try (0..<100_000).map { index in
            var task = try download("https://example.com/files/\(index).bin")
            task.spec.headers = [header]
            return task
        }

        // When inserted in one call
        let ids = try journal.insert(tasks)

        // Then every task is there, in order, and a deep page is read without loading all rows
        #expect(ids.count == 100_000)
        #expect(Set(ids).count == 100_000)
        #expect(try journal.countsByState()[.queued] == 100_000)
        let page = try journal.tasks(in: [.queued], limit: 50, offset: 99_950)
        #expect(page.map(\.id) == Array(ids.suffix(50)))
        #expect(page.last?.spec.urls.first?.string == "https://example.com/files/99999.bin")
        #expect(page.last?.spec.headers == [header])
        #expect(try journal.nextRunnable(limit: 3).map(\.id) == Array(ids.prefix(3)))
    }
}
