@testable import FerryQueue
import Testing

/// `SlotPlanner` without a server: the global and per-host limits, the tasks handed ahead,
/// the bound on finishing files, queue order, and tasks of several connections.
struct SlotPlannerTests {
    /// `admitted(_:_:)` offers candidates to `hosts` in order and returns the places of those taken.
    private func admitted(_ planner: inout SlotPlanner, _ hosts: [String]) -> [Int] {
        var taken: [Int] = []
        for (index, host) in hosts.enumerated() where planner.admit(host: host) {
            taken.append(index)
        }
        return taken
    }

    @Test func aRoundStartsNoMoreThanTheFreeSlotsInQueueOrder() {
        // Given 3 slots, 1 taken, and a session that holds nothing back.
        var planner = SlotPlanner(maximumConcurrent: 3, maximumPerHost: 3, handsAhead: false,
                                  transferring: 1, holdingFiles: 1)
        planner.count(host: "a:80")

        // When five candidates to five hosts are offered.
        #expect(planner.startsAny(writing: false))
        let taken = admitted(&planner, ["b:80", "c:80", "d:80", "e:80", "f:80"])

        // Then the first two take the two free slots.
        #expect(taken == [0, 1])
        #expect(planner.free == 0)
    }

    @Test func aBusyHostIsSkippedAndTheOthersKeepTheirOrder() {
        // Given 4 slots, at most 2 per host, one transfer to host a under way.
        var planner = SlotPlanner(maximumConcurrent: 4, maximumPerHost: 2, handsAhead: false,
                                  transferring: 1, holdingFiles: 1)
        planner.count(host: "a:80")

        // When candidates to a, a, b, a, c are offered.
        let taken = admitted(&planner, ["a:80", "a:80", "b:80", "a:80", "c:80"])

        // Then a takes its second place, the next ones to a wait, b and c start in order.
        #expect(taken == [0, 2, 4])
    }

    @Test func noSlotFreeStartsNothing() {
        var planner = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 2, handsAhead: false,
                                  transferring: 2, holdingFiles: 2)

        #expect(!planner.startsAny(writing: true))
        #expect(admitted(&planner, ["a:80"]).isEmpty)
    }

    @Test func tasksHandedAheadAreBoundedByEightTimesTheLimit() {
        // Given a limit of 2 with both slots taken, and a session that holds transfers back.
        var planner = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 32, handsAhead: true,
                                  transferring: 2, holdingFiles: 2)

        // When twenty candidates are offered.
        #expect(planner.startsAny(writing: false))
        let taken = admitted(&planner, Array(repeating: "a:80", count: 20))

        // Then sixteen are handed ahead, eight times the limit.
        #expect(taken == Array(0..<16))
    }

    @Test func aRoundKeptToTheRealSlotsHandsNothingAhead() {
        // Given a limit of 4 with one transfer under way, and a session that holds transfers back.
        var planner = SlotPlanner(maximumConcurrent: 4, maximumPerHost: 32, handsAhead: true,
                                  transferring: 1, holdingFiles: 1)

        // When the round is kept to the real slots and ten candidates are offered.
        planner.keepToRealSlots()
        let taken = admitted(&planner, Array(repeating: "a:80", count: 10))

        // Then the three free slots are taken, and nothing more.
        #expect(taken == [0, 1, 2])
    }

    @Test func theHostLimitCountsTheTasksHandedAhead() {
        // Given a limit of 4 and 1 per host, one transfer to a under way: a's bound is 1 + 32.
        var planner = SlotPlanner(maximumConcurrent: 4, maximumPerHost: 1, handsAhead: true,
                                  transferring: 1, holdingFiles: 1)
        planner.count(host: "a:80")

        let taken = admitted(&planner, Array(repeating: "a:80", count: 40))

        #expect(taken == Array(0..<32))
    }

    @Test func tasksHandedAheadAreToppedUpInBatchesUnlessTheJournalIsWrittenAnyway() {
        // Given every real slot taken and 9 of the 16 tasks handed ahead still waiting.
        let planner = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 32, handsAhead: true,
                                  transferring: 11, holdingFiles: 11)

        // Then 7 free places are fewer than half of 16: they wait for a batch, unless endings
        // are being recorded.
        #expect(planner.free == 7)
        #expect(!planner.startsAny(writing: false))
        #expect(planner.startsAny(writing: true))
        // Half of them free: a batch is handed.
        let half = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 32, handsAhead: true,
                               transferring: 10, holdingFiles: 10)
        #expect(half.startsAny(writing: false))
        // A real slot free is taken at once.
        let oneFree = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 32, handsAhead: true,
                                  transferring: 1, holdingFiles: 17)
        #expect(oneFree.startsAny(writing: false))
    }

    @Test func filesStillFinishingBoundWhatStarts() {
        // Given a limit of 2, no transfer under way, and 33 files finishing (the bound is 17 x 2).
        var planner = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 2, handsAhead: false,
                                  transferring: 0, holdingFiles: 33)

        // When two candidates are offered, one starts.
        #expect(admitted(&planner, ["a:80", "b:80"]) == [0])

        // And with 34 files finishing, none.
        let full = SlotPlanner(maximumConcurrent: 2, maximumPerHost: 2, handsAhead: false,
                               transferring: 0, holdingFiles: 34)
        #expect(!full.startsAny(writing: true))
    }

    @Test func aTaskOfSeveralConnectionsCountsEachAgainstTheLimits() {
        // Given 4 free slots, at most 3 per host.
        var planner = SlotPlanner(maximumConcurrent: 4, maximumPerHost: 3, handsAhead: false,
                                  transferring: 0, holdingFiles: 0)

        // Then a task of 4 connections to one host does not fit its host, one of 3 does; the
        // one slot left takes a one-connection task, not a two-connection one.
        let taken = [planner.admit(host: "a:80", connections: 4), planner.admit(host: "a:80", connections: 3),
                     planner.admit(host: "b:80", connections: 2), planner.admit(host: "b:80", connections: 1)]
        #expect(taken == [false, true, false, true])
        #expect(planner.free == 0)
    }
}
