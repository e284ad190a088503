/// `FairShare` splits one speed budget max-min fairly among transfers.
///
/// Each transfer asks for at most its `cap` (its own speed cap, which it never goes above) and,
/// when it is known to want less, its `demand` (a transfer held back by its server, not by
/// Ferry). Water filling: the smallest wants are met first and what they leave is shared by
/// the rest. When every want is met and budget is left, the rest is shared among the
/// transfers still under their cap, so that a transfer whose server speeds up is not held at
/// its old rate. Shares never add up to more than the budget (unless there are more
/// transfers than bytes), and none is 0, which libcurl and the pacer take for no limit.
/// A pure value: tests drive it without a server.
struct FairShare {
    /// `Want` is what one transfer may take: `cap` is a hard limit, `demand` an estimate
    /// (`nil` for either: no bound).
    struct Want: Equatable, Sendable {
        var cap: Int64?
        var demand: Int64?

        init(cap: Int64? = nil, demand: Int64? = nil) {
            self.cap = cap
            self.demand = demand
        }

        /// The tighter of `cap` and `demand`.
        var bound: Int64? {
            switch (cap, demand) {
            case let (cap?, demand?): min(cap, demand)
            case let (cap?, nil): cap
            case let (nil, demand?): demand
            case (nil, nil): nil
            }
        }
    }

    /// The share of `budget` (bytes per second) of each of `wants`, in their order.
    static func shares(budget: Int64, wants: [Want]) -> [Int64] {
        guard !wants.isEmpty else { return [] }
        let budget = max(1, budget)
        var shares = fill(budget: budget, bounds: wants.map(\.bound), start: Array(repeating: 0, count: wants.count))
        let left = budget - shares.reduce(0, +)
        if left > 0 {
            // Every want is met: what is left goes to the transfers under their cap.
            let headroom = wants.indices.map { index -> Int64? in
                wants[index].cap.map { max(0, $0 - shares[index]) }
            }
            shares = fill(budget: left, bounds: headroom, start: shares)
        }
        return shares.map { max(1, $0) }
    }

    /// `fill(budget:bounds:start:)` adds `budget` to `start` by water filling under `bounds`
    /// (extra per transfer; `nil` is unbounded).
    private static func fill(budget: Int64, bounds: [Int64?], start: [Int64]) -> [Int64] {
        var shares = start
        var left = budget
        // Bounded ones in ascending order, then the unbounded ones.
        var order = bounds.indices.sorted { a, b in
            switch (bounds[a], bounds[b]) {
            case let (x?, y?): x < y
            case (_?, nil): true
            default: false
            }
        }
        while !order.isEmpty, left > 0 {
            let equal = left / Int64(order.count)
            let index = order[0]
            if let bound = bounds[index], bound <= equal {
                shares[index] += bound
                left -= bound
                order.removeFirst()
                continue
            }
            // No remaining want is below the equal part: each gets it (the remainder goes
            // to the first ones, a byte each).
            let remainder = left - equal * Int64(order.count)
            for (position, index) in order.enumerated() {
                shares[index] += equal + (Int64(position) < remainder ? 1 : 0)
            }
            left = 0
            order.removeAll()
        }
        return shares
    }
}
