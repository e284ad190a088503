import FerryQueue
import Testing
@testable import FerryRPC

/// `ActivityFeed`: what a front end polling `ferry.activity` receives.
struct ActivityFeedTests {
    @Test func aClientGetsEveryEventSinceItsNumberOnceAndInOrder() {
        let feed = ActivityFeed()
        // Attaching: no events, only the number to follow from.
        let first = feed.page(since: nil)
        #expect(first.events.isEmpty && !first.reset && first.next == 0)
        feed.append(.started(TaskID(1)))
        feed.append(.ended(TaskID(1), .done, error: nil))
        let second = feed.page(since: first.next)
        #expect(second.events == [.started(TaskID(1)), .ended(TaskID(1), .done, error: nil)])
        #expect(second.next == 2 && !second.reset)
        // Asked again with the new number: nothing twice.
        #expect(feed.page(since: second.next).events.isEmpty)
        #expect(feed.lastPoll != nil)
    }

    @Test func aClientFallenBehindIsToldToReadTheQueueAgain() {
        let feed = ActivityFeed()
        for index in 0..<(ActivityFeed.capacity + 10) {
            feed.append(.started(TaskID(Int64(index) + 1)))
        }
        let page = feed.page(since: 0)
        #expect(page.reset && page.events.isEmpty)
        // A number from the future (another daemon's) is a reset too.
        #expect(feed.page(since: page.next + 100).reset)
        // From the number it was given, it follows again.
        feed.append(.journalChanged)
        #expect(feed.page(since: page.next).events == [.journalChanged])
    }
}
