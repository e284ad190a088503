import FerryQueue
import Foundation
@testable import FerryRPC

/// `EngineFixture` is an RPC engine over a fresh journal in a temporary directory, holding
/// `tasks` queued downloads that nothing runs: what a test calls methods on through a
/// dispatcher, as a client would.
struct EngineFixture {
    let directory: String
    let journal: Journal
    let engine: RPCEngine

    init(tasks: Int = 0) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-rpc-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        journal = try Journal.open(at: directory + "/journal.sqlite").journal
        if tasks > 0 {
            _ = try journal.insert((0..<tasks).map { index in
                NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://example.com/files/\(index).bin")],
                                       requestedName: "f\(index).bin"))
            })
        }
        let scheduler = Scheduler(journal: journal, configuration: SchedulerConfiguration(defaultDirectory: directory))
        engine = RPCEngine(journal: journal, runner: scheduler, defaultDirectory: directory, maximumConcurrent: 1,
                           onShutdown: {})
    }

    /// `dispatcher(secret:answerBytes:)` answers requests on this engine.
    func dispatcher(secret: String? = nil, answerBytes: Int = AnswerBudget.maximumBytes) -> RPCDispatcher {
        RPCDispatcher(engine: engine, secret: secret.flatMap { RPCSecret($0) }, answerBytes: answerBytes)
    }

    /// `close()` closes the journal and removes the directory.
    func close() {
        try? journal.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
