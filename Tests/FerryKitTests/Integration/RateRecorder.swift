import Foundation
import Synchronization
@testable import FerryKit

/// `RateRecorder` notes each task's received bytes (sent bytes for an upload: the
/// larger of the two) from a session's progress events, on the thread that publishes them, and
/// answers what moved in windows of time. Its times are the events' own, so a test task
/// resumed late (a busy cooperative pool) does not stretch them.
final class RateRecorder: Sendable {
    private let samples = Mutex<[Int: [(time: Double, bytes: Int64)]]>([:])
    private let clock = SystemClock()
    private let token = Mutex<Int?>(nil)

    init(session: SessionManager) {
        let id = session.observe { [weak self] event in
            guard case .progress(let taskID, let progress) = event, let self else { return }
            let now = clock.now()
            samples.withLock { $0[taskID, default: []].append((now, max(progress.receivedBytes, progress.sentBytes))) }
        }
        token.withLock { $0 = id }
    }

    /// Seconds on the recorder's clock.
    var now: Double { clock.now() }

    /// The bytes `taskID` had received at `time` (the last sample at or before it).
    func bytes(of taskID: Int, at time: Double) -> Int64 {
        samples.withLock { all in
            all[taskID, default: []].last { $0.time <= time }?.bytes ?? 0
        }
    }

    /// When `taskID` first had at least `count` bytes, `nil` before that.
    func time(of taskID: Int, reaching count: Int64) -> Double? {
        samples.withLock { all in
            all[taskID, default: []].first { $0.bytes >= count }?.time
        }
    }

    /// The bytes `taskID` received between `start` and `end`.
    func moved(by taskID: Int, from start: Double, to end: Double) -> Int64 {
        bytes(of: taskID, at: end) - bytes(of: taskID, at: start)
    }

    /// The bytes `taskID` received in each whole second from `start` to `end`.
    func perSecond(of taskID: Int, from start: Double, to end: Double) -> [Int64] {
        var result: [Int64] = []
        var from = start
        while from + 1 <= end + 1e-9 {
            result.append(moved(by: taskID, from: from, to: from + 1))
            from += 1
        }
        return result
    }

    /// Waits until the recorder's clock has passed `time` (polled every 20 ms, at most
    /// `timeout` seconds in all). A window measured from `start` to `end` then has exactly
    /// that length, however late the waiting task is resumed.
    func wait(until time: Double, timeout: Double = 600) async {
        let deadline = now + timeout
        while now <= time, now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// When every one of `taskIDs` had moved a byte; `nil` while one has not.
    func allMoving(_ taskIDs: [Int]) -> Double? {
        var latest = 0.0
        for id in taskIDs {
            guard let time = time(of: id, reaching: 1) else { return nil }
            latest = max(latest, time)
        }
        return latest
    }
}
