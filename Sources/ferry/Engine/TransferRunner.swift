import FerryKit
import Foundation
import Synchronization

/// `TransferJob` is one transfer the command line runs: how to make its task, and how to show it.
struct TransferJob: Sendable {
    /// The URL with secrets masked, for messages.
    let label: String
    /// Makes a fresh task for each attempt.
    let makeTask: @Sendable (SessionManager) -> TransferTask
}

/// `TransferRunner` runs the jobs of `ferry put` with a concurrency limit, each once,
/// reporting as it goes.
struct TransferRunner {
    let session: SessionManager
    let concurrency: Int
    let reporter: Reporter

    /// Runs every job and returns their outcomes in job order.
    func run(_ jobs: [TransferJob]) async -> [Result<TransferResult, FerryError>] {
        await run(count: jobs.count) { index in await runJob(jobs[index], index: index) }
    }

    /// Runs `perform` for the indices `0..<count`, at most `concurrency` at once, and returns
    /// the outcomes in index order.
    private func run(count: Int, _ perform: @escaping @Sendable (Int) async -> Result<TransferResult, FerryError>) async -> [Result<TransferResult, FerryError>] {
        let limit = max(1, concurrency)
        return await withTaskGroup(of: (Int, Result<TransferResult, FerryError>).self) { group in
            var outcomes = [Result<TransferResult, FerryError>?](repeating: nil, count: count)
            var next = 0
            func startNext() {
                guard next < count else { return }
                let index = next
                next += 1
                group.addTask { (index, await perform(index)) }
            }
            for _ in 0..<min(limit, count) { startNext() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                reporter.finished(job: index, outcome: outcome)
                startNext()
            }
            return outcomes.map { $0 ?? .failure(.cancelled) }
        }
    }

    /// An upload runs once: its body may be a stream that cannot be read again, and a server
    /// that rejects it says why (retries of queued transfers are the scheduler's).
    private func runJob(_ job: TransferJob, index: Int) async -> Result<TransferResult, FerryError> {
        let task = job.makeTask(session)
        reporter.started(job: index, label: job.label, task: task, attempt: 1)
        task.resume()
        let outcome = await task.outcome()
        reporter.ended(job: index, task: task, outcome: outcome)
        return outcome
    }
}
