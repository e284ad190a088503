import Testing
@testable import FerryKit

/// `FairShare`: one budget split max-min fairly, without a server.
@Suite struct FairShareTests {
    typealias Want = FairShare.Want

    @Test func equalWantsGetEqualShares() {
        let shares = FairShare.shares(budget: 2 << 20, wants: Array(repeating: Want(), count: 6))
        #expect(shares.reduce(0, +) == 2 << 20)
        #expect(shares.max()! - shares.min()! <= 1)
    }

    @Test func aCapBelowTheFairShareIsKeptAndTheRestGoesToTheOthers() {
        // Given 3 MiB/s for three transfers, one capped at 100 KiB/s.
        let shares = FairShare.shares(budget: 3 << 20, wants: [Want(cap: 100 << 10), Want(), Want()])
        // Then the capped one gets its cap and the two others split the rest.
        #expect(shares[0] == 100 << 10)
        #expect(shares[1] == shares[2])
        #expect(shares.reduce(0, +) == 3 << 20)
    }

    @Test func aSlowTransferLeavesWhatItDoesNotUseToTheOthers() {
        // Given 1 MB/s for four transfers, one held back by its server at 50 kB/s.
        let shares = FairShare.shares(budget: 1_000_000, wants: [Want(), Want(demand: 50_000), Want(), Want()])
        #expect(shares[1] == 50_000)
        #expect(shares[0] == 316_667 || shares[0] == 316_666)
        #expect(shares.reduce(0, +) == 1_000_000)
    }

    @Test func whenEveryWantIsMetTheRestIsSharedUnderTheCaps() {
        // Given 1 MB/s and two slow transfers, one of them capped at 200 kB/s.
        let shares = FairShare.shares(budget: 1_000_000, wants: [Want(cap: 200_000, demand: 20_000), Want(demand: 30_000)])
        // Then the capped one may rise to its cap, the other takes the rest.
        #expect(shares[0] == 200_000)
        #expect(shares[1] == 800_000)
    }

    @Test func noShareIsAboveItsCapEvenWithBudgetLeft() {
        let shares = FairShare.shares(budget: 10_000_000, wants: [Want(cap: 1000), Want(cap: 2000)])
        #expect(shares == [1000, 2000])
    }

    @Test func noShareIsZero() {
        // 0 would mean "no limit" to libcurl and the pacer.
        let shares = FairShare.shares(budget: 3, wants: Array(repeating: Want(), count: 5))
        #expect(shares.allSatisfy { $0 >= 1 })
        #expect(FairShare.shares(budget: 0, wants: [Want()]) == [1])
        #expect(FairShare.shares(budget: 100, wants: [Want(cap: 0)]) == [1])
        #expect(FairShare.shares(budget: 100, wants: []).isEmpty)
    }

    @Test func sharesNeverAddUpToMoreThanTheBudget() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let count = Int.random(in: 1...12, using: &generator)
            let budget = Int64.random(in: 1_000...50_000_000, using: &generator)
            let wants = (0..<count).map { _ in
                Want(cap: Bool.random(using: &generator) ? Int64.random(in: 1...10_000_000, using: &generator) : nil,
                     demand: Bool.random(using: &generator) ? Int64.random(in: 1...10_000_000, using: &generator) : nil)
            }
            let shares = FairShare.shares(budget: budget, wants: wants)
            #expect(shares.reduce(0, +) <= budget)
            for (share, want) in zip(shares, wants) {
                if let cap = want.cap { #expect(share <= cap) }
            }
            // Max-min fair: a transfer below the largest share got at least all it wanted.
            let top = shares.max() ?? 0
            for (share, want) in zip(shares, wants) where share < top - 1 {
                let bound = want.bound ?? Int64.max
                #expect(share >= bound, "\(share) of \(budget) for \(want) among \(wants)")
            }
        }
    }
}
