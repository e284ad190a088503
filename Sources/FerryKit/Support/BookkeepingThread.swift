import Dispatch
import Foundation
import Glibc
import Synchronization

/// `BookkeepingThread` is a thread of its own that runs the work given to it in order, one
/// piece at a time, a little below the default scheduling priority (`niceness`).
///
/// Transfers themselves run on the engine's thread at the default priority; what follows them
/// (a finished file's sync and final name, the scheduler's journal writes and decisions) runs
/// on bookkeeping threads. On a machine with few cores the two compete; at the same priority a
/// bookkeeping thread that wakes up preempts the engine in the middle of its transfers (on two
/// cores, a queue of 5,000 small files ran about 5 % longer that way). A nice value of 5 gives
/// the engine the core first; 10 gained less and 19 nothing (the engine needs the bookkeeping
/// to keep up: it starts transfers the scheduler handed over and waits for files to be named).
/// Lowering a thread's own priority needs no privilege; a thread that cannot lower it simply
/// runs at the default.
///
/// It is also a `SerialExecutor`: an actor whose `unownedExecutor` is this thread's runs all
/// its work here (`Scheduler`).
///
/// Threads: `submit(_:)`, `enqueue(_:)` and `stop()` are called from any thread; the work runs
/// on the bookkeeping thread only. `@unchecked Sendable`: the queue is behind a `Mutex`.
package final class BookkeepingThread: SerialExecutor, @unchecked Sendable {
    /// `niceness` is the nice value bookkeeping threads run at (0 is the default priority).
    public static let niceness: Int32 = 5

    private struct State {
        var work: [@Sendable () -> Void] = []
        var stopping = false
        /// True once the thread has returned: work given after that runs on the caller.
        var ended = false
    }

    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)
    /// The thread's id, set once it runs (0 before).
    private let threadID = Atomic<UInt>(0)

    /// `init(name:)` starts the thread, named `name` for the kernel (at most 15 bytes show).
    public init(name: String) {
        let thread = Thread { [self] in
            threadID.store(UInt(pthread_self()), ordering: .releasing)
            ThreadName.setCurrent(name)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, BookkeepingThread.niceness)
            run()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// `submit(_:)` queues `work` to run after the work queued before it.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        let (wakes, ended) = state.withLock { state -> (Bool, Bool) in
            if state.ended { return (false, true) }
            state.work.append(work)
            return (state.work.count == 1, false)
        }
        if ended {
            work()
        } else if wakes {
            wakeup.signal()
        }
    }

    /// `stop()` lets the thread end once the work already queued has run.
    public func stop() {
        state.withLock { $0.stopping = true }
        wakeup.signal()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        submit { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// `isCurrent` is true on the bookkeeping thread itself.
    public var isCurrent: Bool {
        threadID.load(ordering: .acquiring) == UInt(pthread_self())
    }

    /// Work given with `submit(_:)` runs alone on this thread, as an actor's jobs do: an actor
    /// running here may take its isolation there (`assumeIsolated`).
    public func checkIsolated() {
        precondition(isCurrent, "not on the bookkeeping thread")
    }

    public func isIsolatingCurrentContext() -> Bool? {
        isCurrent
    }

    private func run() {
        while true {
            let (batch, stopping) = state.withLock { state in
                defer { state.work.removeAll(keepingCapacity: true) }
                return (state.work, state.stopping)
            }
            for work in batch {
                work()
            }
            if !batch.isEmpty { continue }
            if stopping {
                // Work given while the last batch ran is taken before the thread ends.
                let late = state.withLock { state in
                    state.ended = true
                    defer { state.work.removeAll() }
                    return state.work
                }
                for work in late {
                    work()
                }
                return
            }
            wakeup.wait()
        }
    }
}
