/// `SlotPlanner` counts the places free in one round of choosing what starts: the limits,
/// the transfers under way per host, the tasks handed to the session ahead of need and the
/// files still finishing give how many tasks may start, and candidates offered in queue
/// order are taken while they fit (`admit(host:connections:)`). A pure value: the
/// `Scheduler` makes one per round and reads the candidates from the journal itself.
///
/// Places are counted in connections: every task holds one today; one that holds several
/// (a download in segments) counts each against the limits, and still holds one file.
struct SlotPlanner {
    /// `finishingFactor` times the concurrency limit is the most tasks holding a file at once:
    /// transferring, finishing (their network part over, the file being made durable and
    /// named) or ended and not yet recorded; each holds a descriptor. It leaves room for the
    /// tasks handed ahead and for the files of a slow group sync: at 4, with 16 small downloads
    /// at once, 68 files waiting for the disk stopped the scheduler from handing any more.
    static let finishingFactor = 16
    /// `aheadFactor` times the concurrency limit is how many more tasks are handed to a session
    /// that holds transfers beyond its limits itself (it starts one the moment another's
    /// network part is over, without waiting for the scheduler). Small files end fast (about
    /// 11 a millisecond at 16 at once on loopback) and a top-up can take the scheduler several
    /// milliseconds (a journal write, the file names checked on a busy disk): at 2, the
    /// session had nothing left to start for half of a run of 5,000 such downloads, at 8 for
    /// a tenth of it.
    static let aheadFactor = 8

    /// `maximumConcurrent` is the global limit of connections at once.
    let maximumConcurrent: Int
    /// `ahead` is how many tasks may be handed to the session beyond the limits; `0` when it
    /// holds none back.
    let ahead: Int
    /// `transferring` are the connections of the transfers whose network part is not over.
    let transferring: Int
    /// `perHostLimit` is the most connections to one host, those handed ahead included.
    private let perHostLimit: Int
    /// `connectionsFree` are the connections that may still be opened (or handed ahead).
    private var connectionsFree: Int
    /// `filesFree` are the tasks that may still start under the bound on files.
    private var filesFree: Int
    /// `perHost` counts connections by `host:port`: under way and admitted this round.
    private var perHost: [String: Int] = [:]

    /// `init(maximumConcurrent:maximumPerHost:handsAhead:transferring:holdingFiles:)` plans
    /// one round. `handsAhead` is true when the session holds transfers beyond the limits
    /// itself; `transferring` are the connections whose network part is not over;
    /// `holdingFiles` are the tasks holding a file (running, finishing, or ended and not
    /// yet recorded).
    init(maximumConcurrent: Int, maximumPerHost: Int, handsAhead: Bool, transferring: Int, holdingFiles: Int) {
        self.maximumConcurrent = maximumConcurrent
        self.transferring = transferring
        ahead = handsAhead ? SlotPlanner.aheadFactor * maximumConcurrent : 0
        perHostLimit = maximumPerHost + ahead
        connectionsFree = maximumConcurrent + ahead - transferring
        filesFree = (1 + SlotPlanner.finishingFactor) * maximumConcurrent - holdingFiles
    }

    /// `free` is how many one-connection tasks may still start.
    var free: Int { min(connectionsFree, filesFree) }

    /// `startsAny(writing:)` is false when this round should start nothing: no place is free,
    /// or every real slot is taken and the tasks handed ahead are to be topped up in batches
    /// (once half of them have started, so one journal write marks many while the other half
    /// keeps the session busy) unless the journal is `writing` anyway (endings are recorded).
    func startsAny(writing: Bool) -> Bool {
        guard free > 0 else { return false }
        return writing || transferring < maximumConcurrent || free >= ahead / 2
    }

    /// `keepToRealSlots()` makes this round take no task to hand ahead: only the connections
    /// free under the concurrency limit itself.
    mutating func keepToRealSlots() {
        connectionsFree = min(connectionsFree, max(0, maximumConcurrent - transferring))
    }

    /// `count(host:connections:)` counts a transfer under way against its host.
    mutating func count(host: String, connections: Int = 1) {
        perHost[host, default: 0] += connections
    }

    /// `admit(host:connections:)` takes a candidate that needs `connections` to `host` when
    /// they fit, and counts it; offered in queue order, the admitted ones start in that order.
    mutating func admit(host: String, connections: Int = 1) -> Bool {
        guard connectionsFree >= connections, filesFree > 0 else { return false }
        guard perHost[host, default: 0] + connections <= perHostLimit else { return false }
        perHost[host, default: 0] += connections
        connectionsFree -= connections
        filesFree -= 1
        return true
    }
}
