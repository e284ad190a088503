import Foundation
import Synchronization

/// `AnswerBudget` bounds what one request may make the daemon build: rows per status call
/// and bytes per answer (a call, a batch or a `system.multicall` together). Past a bound the
/// call is answered with `AnswerBudget.exceeded` (code 1, saying the bound) instead of a
/// giant answer, so no request can exhaust the daemon's memory.
///
/// The dispatcher installs one budget per request (`AnswerBudget.$current`); the status lists
/// charge it as they write. Thread-safe: the bytes left sit behind one lock.
public final class AnswerBudget: Sendable {
    /// `maximumRows` is the most tasks one `tellWaiting`, `tellStopped` or list call
    /// answers, 10,000; a page past it is refused (ask for fewer and page with the offset).
    public static let maximumRows = 10_000
    /// `maximumBytes` is the largest answer one request may build, 64 MiB.
    public static let maximumBytes = 64 << 20

    /// `current` is the budget of the request being answered; `nil` outside the dispatcher.
    @TaskLocal static var current: AnswerBudget?

    private let state: Mutex<(left: Int, exceeded: Bool)>

    /// `init(bytes:)` makes a budget of `bytes`.
    init(bytes: Int = AnswerBudget.maximumBytes) {
        state = Mutex((left: bytes, exceeded: false))
        limit = bytes
    }

    /// `left` is how many bytes the answer may still grow by.
    var left: Int { state.withLock { $0.left } }

    /// `exceeded` is true once a list stopped because it would pass the budget.
    var exceeded: Bool { state.withLock { $0.exceeded } }

    /// `fits(_:)` is whether a list of `bytes` so far still fits; when it does not, the
    /// budget is marked exceeded.
    func fits(_ bytes: Int) -> Bool {
        state.withLock { state in
            if bytes > state.left { state.exceeded = true }
            return !state.exceeded
        }
    }

    /// `charge(_:)` takes an answer of `bytes` off the budget; false when it does not fit.
    func charge(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard !state.exceeded, bytes <= state.left else {
                state.exceeded = true
                return false
            }
            state.left -= bytes
            return true
        }
    }

    /// `exceeded` is the error of a call past the byte budget.
    static func exceededError(_ bytes: Int) -> RPCError {
        RPCError.failed("The answer would be larger than \(bytes) bytes; ask for fewer tasks or keys per call or batch.")
    }

    /// `limit` is the budget's size in bytes.
    let limit: Int

    /// `tooManyRows(_:)` is the error of a page of more than `maximumRows` tasks.
    static func tooManyRows(_ count: Int64) -> RPCError {
        RPCError.failed(
            "The answer would list \(count) tasks, more than \(maximumRows) per call; ask for fewer and page with the offset."
        )
    }
}
