import FerryKit
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

    @Test func aWaitingClientHearsAnEventAtOnceAndOtherwiseWaitsNoLongerThanAsked() async {
        let feed = ActivityFeed()
        let start = feed.page(since: nil).next
        // Nothing happens: the answer comes once the wait is over, empty.
        let clock = ContinuousClock()
        let began = clock.now
        let quiet = await feed.page(since: start, waitingUpTo: .milliseconds(50))
        #expect(quiet.events.isEmpty && quiet.next == start)
        #expect(clock.now - began >= .milliseconds(50))
        // An event appended while a client waits ends its wait with the event.
        let waiting = Task { await feed.page(since: start, waitingUpTo: .seconds(30)) }
        feed.append(.started(TaskID(7)))
        let heard = await waiting.value
        #expect(heard.events == [.started(TaskID(7))])
        // An event already there is answered without a wait.
        #expect(await feed.page(since: start, waitingUpTo: .seconds(30)).events == [.started(TaskID(7))])
    }

    @Test func anAttemptTellsItsFirstBytesTwiceAtMostAndItsLastBytesWithItsEnd() throws {
        let feed = ActivityFeed()
        let id = TaskID(3)
        feed.record(.started(id))
        for bytes: Int64 in [0, 100, 100, 250, 400, 900] {
            feed.record(.progress(id, TransferProgress(receivedBytes: bytes, expectedReceivedBytes: 1_000)))
        }
        feed.record(.willRetry(id, delay: 1.5))
        feed.record(.note(id, "a mirror answered 404"))
        feed.record(.ended(id, .queued, error: "timed out"))
        let page = feed.page(since: 0)
        #expect(page.events == [
            .started(id), .firstBytes(id, received: 100, expected: 1_000), .firstBytes(id, received: 250, expected: 1_000),
            .willRetry(id, delay: 1.5), .note(id, "a mirror answered 404"),
            .ended(id, .queued, error: "timed out", received: 900),
        ])
    }
}
