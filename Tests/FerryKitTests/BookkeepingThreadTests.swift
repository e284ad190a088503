import Foundation
import Glibc
import Synchronization
import Testing
@testable import FerryKit

@Suite struct BookkeepingThreadTests {
    /// `Counter` is an actor on a bookkeeping thread, as the scheduler is.
    actor Counter {
        let thread: BookkeepingThread
        var values: [Int] = []
        var threadsSeen: Set<Bool> = []

        init(thread: BookkeepingThread) {
            self.thread = thread
        }

        nonisolated var unownedExecutor: UnownedSerialExecutor {
            thread.asUnownedSerialExecutor()
        }

        func append(_ value: Int) {
            values.append(value)
            threadsSeen.insert(thread.isCurrent)
        }
    }

    @Test func runsWorkInOrderOnItsOwnThreadAtALowerPriority() throws {
        let thread = BookkeepingThread(name: "test-bookkeep")
        defer { thread.stop() }
        let seen = Mutex<[Int]>([])
        let niceness = Mutex<Int32?>(nil)
        let onThread = Mutex<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        for value in 0..<500 {
            thread.submit {
                seen.withLock { $0.append(value) }
                onThread.withLock { $0.append(thread.isCurrent) }
            }
        }
        thread.submit {
            errno = 0
            let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            niceness.withLock { $0 = errno == 0 ? value : nil }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0 } == Array(0..<500))
        #expect(onThread.withLock { $0 }.allSatisfy { $0 })
        #expect(niceness.withLock { $0 } == BookkeepingThread.niceness)
        #expect(!thread.isCurrent)
    }

    @Test func anActorOnItRunsThereAndWorkSubmittedTakesItsIsolation() async throws {
        let thread = BookkeepingThread(name: "test-actor")
        defer { thread.stop() }
        let counter = Counter(thread: thread)
        for value in 0..<100 {
            await counter.append(value)
        }
        // Work submitted to the thread runs alone there, so it may assume the actor's isolation.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            thread.submit {
                counter.assumeIsolated { $0.append(100) }
                continuation.resume()
            }
        }
        #expect(await counter.values == Array(0...100))
        #expect(await counter.threadsSeen == [true])
    }

    @Test func stopRunsTheQueuedWorkFirstAndLaterWorkRunsOnTheCaller() throws {
        let thread = BookkeepingThread(name: "test-stop")
        let ran = Mutex(0)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        thread.submit {
            started.signal()
            release.wait()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        for _ in 0..<10 {
            thread.submit { ran.withLock { $0 += 1 } }
        }
        thread.stop()
        release.signal()
        // The queued work runs before the thread ends; once it has ended, work runs on the caller.
        var waited = 0
        while ran.withLock({ $0 }) < 10, waited < 1000 {
            usleep(10_000)
            waited += 1
        }
        #expect(ran.withLock { $0 } == 10)
        var late = false
        for _ in 0..<1000 {
            let callerRan = Mutex(false)
            thread.submit { callerRan.withLock { $0 = !thread.isCurrent } }
            if callerRan.withLock({ $0 }) {
                late = true
                break
            }
            usleep(10_000)
        }
        #expect(late)
    }
}
