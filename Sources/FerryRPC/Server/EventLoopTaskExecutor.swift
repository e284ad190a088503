import NIOCore

/// `EventLoopTaskExecutor` runs a task's jobs on one swift-nio event loop: a connection's
/// handler prefers it (`GuardedChildChannel.handle`), so reading a request, running its method
/// and writing the answer stay on the loop that owns the socket, instead of handing each
/// request to Swift's global pool and each answer back (two thread wake-ups per call: about
/// half of a single `tellStatus`'s time on two cores).
///
/// What a method awaits elsewhere (the scheduler's actor, the journal's writer) still runs
/// there; only the synchronous parts of a method run on the loop, so a method must not block
/// on work that needs the loop (none does: nothing in FerryRPC waits on a future).
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
