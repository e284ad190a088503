import Testing
@testable import FerryTUI

/// `RateMeter` fed byte counts at explicit times: a rate from the first bytes, bytes of
/// files that end within the window still counted, and a rate that falls when nothing comes.
struct RateMeterTests {
    private let kib: Int64 = 1024

    @Test func aRateShowsFromTheFirstBytes() {
        // Given a transfer that began at 10 s
        var meter = RateMeter(startingAt: 10)

        // When its first 50 KiB arrive a quarter of a second later
        meter.count(50 * kib, at: 10.25)

        // Then its rate is 200 KiB/s at once, not after a whole window
        #expect(meter.rate(at: 10.25) == Double(200 * kib))
        #expect(meter.span(at: 10.25) == 0.25)
    }

    @Test func smallFilesEndingWithinTheWindowStillCount() {
        // Given one meter for all transfers and four at a time, each 200 KiB at 200 KiB/s,
        // in waves: every file ends within a second, long before the window is over
        var meter = RateMeter()
        meter.begin(at: 0)
        var rates: [Double] = []
        for step in 1...12 {
            let time = Double(step) * 0.25
            for _ in 0..<4 { meter.count(50 * kib, at: time) }
            rates.append(meter.rate(at: time))
        }

        // Then the rate is the four together, 800 KiB/s, throughout
        #expect(rates == Array(repeating: Double(800 * kib), count: 12))
        #expect(meter.total == 12 * 4 * 50 * kib)
    }

    @Test func theRateFallsToZeroWhenNothingArrives() {
        // Given a steady 100 KiB/s for ten seconds
        var meter = RateMeter(startingAt: 0)
        for step in 1...40 { meter.count(25 * kib, at: Double(step) * 0.25) }
        #expect(meter.rate(at: 10) == Double(100 * kib))

        // When nothing more arrives, then the rate falls over the window and ends at zero
        #expect(meter.rate(at: 11.5) == Double(50 * kib))
        #expect(meter.rate(at: 13) == 0)
        #expect(meter.rate(at: 60) == 0)
    }

    @Test func aNewRunAfterAnIdleTimeIsMeasuredFromItsOwnBeginning() {
        // Given a meter that counted, then stayed idle for a minute
        var meter = RateMeter()
        meter.begin(at: 0)
        meter.count(10 * kib, at: 1)

        // When a transfer begins at 60 s and 20 KiB arrive in the next tenth of a second
        meter.begin(at: 60)
        meter.count(20 * kib, at: 60.1)

        // Then the rate is taken over that tenth, not over the idle minute
        #expect(abs(meter.rate(at: 60.1) - Double(200 * kib)) < 1)
    }

    @Test func aBeginWhileCountingChangesNothing() {
        var meter = RateMeter()
        meter.begin(at: 0)
        meter.count(100 * kib, at: 1)

        meter.begin(at: 1.5)
        meter.count(50 * kib, at: 2)

        #expect(meter.rate(at: 2) == Double(75 * kib))
    }

    @Test func nothingCountedGivesNoRate() {
        let meter = RateMeter()
        #expect(meter.rate(at: 5) == 0)
        #expect(meter.span(at: 5) == 0)
        var started = RateMeter(startingAt: 5)
        started.count(0, at: 5)
        #expect(started.rate(at: 5) == 0)
    }
}
