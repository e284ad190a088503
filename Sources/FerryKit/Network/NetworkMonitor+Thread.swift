import Foundation
import Glibc

extension NetworkMonitor {
    /// `threadName` is the name of the monitor's own thread.
    public static let threadName = "ferry-netmon"

    /// `start(handler:)` runs the monitor on a thread of its own (`ferry-netmon`), which sleeps
    /// in `poll` on the socket and calls `handler` (on that thread) with every status reported.
    /// Does nothing when the monitor is unavailable, already started or stopped.
    public func start(handler: (@Sendable (NetworkStatus) -> Void)? = nil) {
        guard let socketDescriptor = socketDescriptorForThread else { return }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        guard beginThread(handler: handler, wakeupDescriptor: pipeEnds[1]) else {
            close(pipeEnds[0])
            close(pipeEnds[1])
            return
        }
        let wakeupRead = pipeEnds[0]
        let thread = Thread { [self] in
            ThreadName.setCurrent(Self.threadName)
            runLoop(socketDescriptor: socketDescriptor, wakeupDescriptor: wakeupRead)
            close(wakeupRead)
        }
        thread.name = Self.threadName
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// `stop()` ends the monitor's thread (if it runs; it leaves within one poll) and every
    /// stream from `statuses()`; nothing is reported after it. Any thread may call it, the
    /// handler too.
    public func stop() {
        endStreamsAndWakeThread()
    }

    private func runLoop(socketDescriptor: Int32, wakeupDescriptor: Int32) {
        var descriptors = [
            pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeupDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !isStopped, unavailableReason == nil {
            let milliseconds = timeout.map { duration -> Int32 in
                let (seconds, attoseconds) = duration.components
                let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                return Int32(clamping: max(0, total))
            } ?? -1
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = SystemCall.retrying { poll(&descriptors, 2, milliseconds) }
            if ready < 0 { break }
            if descriptors[1].revents != 0 { break }
            if descriptors[0].revents != 0 {
                handleReadable()
            } else {
                handleTimeout()
            }
        }
        threadEnded()
    }
}
