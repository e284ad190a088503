import FerryTestSupport
import Foundation
import Synchronization
@testable import FerryKit

/// `RecordingRetryClock` returns at once from every wait and remembers how long it was asked to wait.
final class RecordingRetryClock: RetryClock {
    private let recorded = Mutex<[Double]>([])

    var delays: [Double] { recorded.withLock { $0 } }

    func sleep(seconds: Double) async {
        recorded.withLock { $0.append(seconds) }
    }
}

/// `CheckpointLog` keeps every checkpoint of a download and streams them as they come.
final class CheckpointLog: Sendable {
    private let recorded = Mutex<[ResumeData]>([])
    let stream: AsyncStream<ResumeData>
    private let continuation: AsyncStream<ResumeData>.Continuation

    init() {
        (stream, continuation) = AsyncStream<ResumeData>.makeStream()
    }

    var all: [ResumeData] { recorded.withLock { $0 } }

    func record(_ data: ResumeData) {
        recorded.withLock { $0.append(data) }
        continuation.yield(data)
    }

    /// Waits (at most `timeout` seconds) for a checkpoint that satisfies `condition`.
    func first(timeout: Double = 30, where condition: @escaping @Sendable (ResumeData) -> Bool) async -> ResumeData? {
        let stream = self.stream
        return await withTaskGroup(of: ResumeData?.self) { group in
            group.addTask {
                for await data in stream where condition(data) { return data }
                return nil
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// `DownloadRun` is one ``ResumableDownload`` run to its end with recorded checkpoints and waits.
struct DownloadRun {
    let outcome: Result<TransferResult, FerryError>
    let checkpoints: [ResumeData]
    let delays: [Double]
    let resumeData: ResumeData?

    var error: FerryError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// Runs a download of `url` into `directory/name` (no jitter, instant waits), on `session`
    /// when given (left open), else on a session of its own.
    static func run(
        _ url: URL, into directory: URL, name: String, policy: DownloadPolicy = DownloadPolicy(),
        resumeFrom: ResumeData? = nil, retryPolicy: RetryPolicy = RetryPolicy(jitter: 0),
        configuration: SessionConfiguration = .default, session given: SessionManager? = nil
    ) async -> DownloadRun {
        let session = given ?? SessionManager(configuration: configuration)
        defer { if given == nil { session.invalidate() } }
        let clock = RecordingRetryClock()
        let log = CheckpointLog()
        let download = ResumableDownload(
            session: session, request: Request(url: url), destination: DownloadDestination(directory: directory, fileName: name),
            policy: policy, retryPolicy: retryPolicy, resumeFrom: resumeFrom, retryClock: clock, random: { 1 }
        ) { log.record($0) }
        let outcome = await download.run()
        return DownloadRun(outcome: outcome, checkpoints: log.all, delays: clock.delays, resumeData: download.resumeData)
    }
}

/// `faultETag(_:seed:)` is the fault server's strong ETag for `/bytes/<n>?seed=<seed>`.
func faultETag(_ n: Int, seed: Int = 0) -> String { "\"\(n)-\(seed)\"" }
