import Testing
@testable import FerryKit

/// `ContentRange` accepts the three valid forms and nothing else.
struct ContentRangeTests {
    @Test func parsesRangesAndUnsatisfiedReplies() {
        #expect(ContentRange(parsing: "bytes 0-99/100") == .bytes(first: 0, last: 99, total: 100))
        #expect(ContentRange(parsing: "bytes 500-999/*") == .bytes(first: 500, last: 999, total: nil))
        #expect(ContentRange(parsing: "bytes */1234") == .unsatisfied(total: 1234))
        #expect(ContentRange(parsing: "  BYTES 1-1/2 ") == .bytes(first: 1, last: 1, total: 2))
        #expect(ContentRange(parsing: "bytes */1234")?.total == 1234)
    }

    @Test(arguments: [
        "", "bytes", "bytes ", "items 0-1/2", "bytes 0-99", "bytes 99-0/100", "bytes 0-100/100",
        "bytes -1-5/10", "bytes 0-5/-10", "bytes 0-5/abc", "bytes a-b/10", "bytes */*", "bytes 0-5/10/12",
        "bytes 0-99999999999999999999/100000000000000000000", "bytes 0 - 5/10", "bytes +0-5/10",
    ])
    func rejectsGarbage(_ text: String) {
        #expect(ContentRange(parsing: text) == nil)
    }
}
