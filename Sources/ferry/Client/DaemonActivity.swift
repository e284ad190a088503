import FerryKit
import FerryQueue
import FerryRPC
import FerryTUI
import Foundation
import Synchronization

/// `DaemonActivity` is the `TransferActivity` of a daemon the terminal UI is attached to:
/// its events come from `ferry.activity` over `control.sock`, asked every `pollInterval`
/// (one small call; with nothing running the answer is empty), and the user's commands go to
/// the daemon as RPC calls, in the order they were given (one consumer sends them).
///
/// Polling rather than a pushed stream: the UI redraws at most a few times a second anyway,
/// a call costs the daemon well under a millisecond, and a poller that stops (the UI quits or
/// dies) leaves nothing behind on the daemon's side. Thread-safe: every method may be called
/// from any thread and returns at once.
final class DaemonActivity: TransferActivity {
    /// `pollInterval` is how often the daemon is asked for its activity.
    static let pollInterval = Duration.milliseconds(250)
    /// `socketPath` is the daemon's `control.sock`.
    let socketPath: String
    private let commands: AsyncStream<Call>.Continuation
    private let stopAsked = Atomic<Bool>(false)

    /// `stopRequested` is true once the user asked to quit and stop the transfers; the
    /// session stops the daemon after the UI has closed.
    var stopRequested: Bool { stopAsked.load(ordering: .acquiring) }

    /// `Call` is one RPC call to make for the user; `answer`, when given, takes its outcome.
    private struct Call: Sendable {
        let method: String
        let params: [JSONValue]
        var answer: (@Sendable (Result<JSONValue, ControlClient.Failure>) -> Void)?
    }

    /// `init(socketPath:)` sends commands to the daemon listening on `socketPath`.
    init(socketPath: String) {
        self.socketPath = socketPath
        let (stream, commands) = AsyncStream<Call>.makeStream()
        self.commands = commands
        Task { [socketPath] in
            for await call in stream {
                // A refused action (the task changed meanwhile) shows in the journal the UI reads.
                do throws(ControlClient.Failure) {
                    let result = try await ControlClient.call(socketPath: socketPath, method: call.method, params: call.params)
                    call.answer?(.success(result))
                } catch {
                    call.answer?(.failure(error))
                }
            }
        }
    }

    deinit { commands.finish() }

    func events() -> AsyncStream<ActivityEvent> {
        let socketPath = self.socketPath
        return AsyncStream { continuation in
            let poller = Task {
                var follower = Follower()
                var failures = 0
                while !Task.isCancelled {
                    let answer: JSONValue
                    do throws(ControlClient.Failure) {
                        answer = try await ControlClient.call(socketPath: socketPath, method: "ferry.activity",
                                                              params: follower.next.map { [.integer($0)] } ?? [],
                                                              timeout: .seconds(5))
                        failures = 0
                    } catch {
                        // Gone (nothing listens): at once. Slow or garbled: after three in a row.
                        failures += 1
                        if case .noDaemon = error {} else if failures < 3 {
                            try? await Task.sleep(for: Self.pollInterval)
                            continue
                        }
                        continuation.yield(.engineStopped("the daemon stopped: transfers are not running (open ferry again to start it)"))
                        break
                    }
                    for event in follower.take(answer) { continuation.yield(event) }
                    try? await Task.sleep(for: Self.pollInterval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in poller.cancel() }
        }
    }

    func pause(_ id: TaskID) { send("aria2.forcePause", [gid(id)]) }
    func resume(_ id: TaskID) { send("aria2.unpause", [gid(id)]) }
    func retry(_ id: TaskID) { send("ferry.retry", [gid(id)]) }
    func remove(_ id: TaskID, deleteFile: Bool) { send("ferry.remove", [gid(id), .bool(deleteFile)]) }
    func journalDidChange() { send("ferry.journalChanged", []) }
    func stopEngine() { stopAsked.store(true, ordering: .releasing) }
    func setLimits(_ limits: TransferLimits) {
        send("ferry.setLimits", [["maxConcurrent": .integer(Int64(limits.maximumConcurrent)),
                                  "maxPerHost": .integer(Int64(limits.maximumPerHost)),
                                  "overallLimit": .integer(limits.overallDownload ?? 0)]])
    }

    func setTaskLimit(_ id: TaskID, _ rate: Int64?) {
        send("aria2.changeOption", [gid(id), ["max-download-limit": .string(String(rate ?? 0))]])
    }

    /// `edit(_:then:)` asks the daemon to make the change (`ferry.add`, `ferry.move`,
    /// `ferry.retarget`, `ferry.purge`), in order with the other commands.
    func edit(_ edit: QueueEdit, then answer: @escaping @Sendable (QueueEditOutcome) -> Void) {
        let method: String
        let params: [JSONValue]
        switch edit {
        case .add(let task):
            (method, params) = ("ferry.add", [.array([TaskRequest.json(task)])])
        case .move(let id, let up):
            (method, params) = ("ferry.move", [gid(id), .string(up ? "up" : "down")])
        case .retarget(let id, let urls):
            (method, params) = ("ferry.retarget", [gid(id), .array(urls.map { .string($0.string) })])
        case .purge(let states):
            (method, params) = ("ferry.purge", [.array(states.map(\.rawValue).sorted().map { .string($0) }), .bool(false)])
        }
        commands.yield(Call(method: method, params: params) { result in
            answer(Self.outcome(of: edit, result))
        })
    }

    /// `outcome(of:_:)` reads the daemon's answer to an edit.
    static func outcome(of edit: QueueEdit, _ result: Result<JSONValue, ControlClient.Failure>) -> QueueEditOutcome {
        let answer: JSONValue
        switch result {
        case .success(let value): answer = value
        case .failure(.rpc(let error)): return .failed(error.message)
        case .failure(.noDaemon): return .failed("the daemon stopped: nothing was changed")
        case .failure(let error): return .failed("the daemon did not answer as expected (\(error))")
        }
        switch edit {
        case .add:
            return answer.arrayValue?.count == 1 ? .done(count: 1) : .failed("the daemon's answer to ferry.add is not understood")
        case .move:
            return .done(count: 1)
        case .retarget:
            return answer.objectValue?["retargeted"] == .bool(true) ? .done(count: 1) : .refused
        case .purge:
            return .done(count: Int(answer.objectValue?["removed"]?.integerValue ?? 0))
        }
    }

    private func send(_ method: String, _ params: [JSONValue]) {
        commands.yield(Call(method: method, params: params))
    }

    private func gid(_ id: TaskID) -> JSONValue {
        .string(GID.string(for: id))
    }

    /// `Follower` turns the answers of `ferry.activity` into `ActivityEvent`s: the events in
    /// order, then the progress of running tasks (a task running when the UI attached, whose
    /// start it never saw, is reported started first).
    struct Follower {
        /// `next` is the number to ask with next; `nil` before the first answer.
        private(set) var next: Int64?
        private var started: Set<TaskID> = []
        private var limits: TransferLimits?

        mutating func take(_ answer: JSONValue) -> [ActivityEvent] {
            guard let object = answer.objectValue, let number = object["next"]?.integerValue else { return [] }
            var events: [ActivityEvent] = []
            var reset = false
            if case .bool(true)? = object["reset"] { reset = true }
            if next == nil || reset {
                events.append(.journalChanged)
            }
            next = number
            if let told = object["limits"]?.objectValue, let concurrent = told["maxConcurrent"]?.integerValue,
               let perHost = told["maxPerHost"]?.integerValue {
                var current = TransferLimits(maximumConcurrent: Int(concurrent), maximumPerHost: Int(perHost),
                                             overallDownload: told["overallLimit"]?.integerValue)
                current.offline = told["offline"] == .bool(true)
                if current != limits {
                    limits = current
                    events.append(.limits(current))
                }
            }
            for item in object["events"]?.arrayValue ?? [] {
                guard let event = item.objectValue, let kind = event["kind"]?.stringValue else { continue }
                if kind == "journalChanged" {
                    events.append(.journalChanged)
                    continue
                }
                guard let id = event["gid"]?.stringValue.flatMap(GID.taskID) else { continue }
                switch kind {
                case "started":
                    started.insert(id)
                    events.append(.started(id))
                case "note":
                    if let text = event["text"]?.stringValue { events.append(.note(id, text)) }
                case "ended":
                    started.remove(id)
                    let state = event["state"]?.stringValue.flatMap(TaskState.init(rawValue:)) ?? .queued
                    events.append(.ended(id, state, error: event["error"]?.stringValue))
                default:
                    break
                }
            }
            for item in object["progress"]?.arrayValue ?? [] {
                guard let entry = item.objectValue, let id = entry["gid"]?.stringValue.flatMap(GID.taskID) else { continue }
                if !started.contains(id) {
                    started.insert(id)
                    events.append(.started(id))
                }
                events.append(.progress(id, DaemonActivity.progress(entry)))
            }
            return events
        }
    }
}

extension DaemonActivity {
    /// `progress(_:)` reads one live transfer of `ferry.activity`'s `progress` list.
    static func progress(_ entry: [String: JSONValue]) -> TransferProgress {
        var progress = TransferProgress(
            receivedBytes: entry["received"]?.integerValue ?? 0, expectedReceivedBytes: entry["expected"]?.integerValue,
            sentBytes: entry["sent"]?.integerValue ?? 0, expectedSentBytes: entry["expectedSent"]?.integerValue,
            bytesPerSecond: Double(entry["speed"]?.integerValue ?? 0))
        progress.connections = entry["connections"]?.integerValue.map { Int($0) }
        progress.sources = entry["sources"]?.arrayValue.map { $0.compactMap(DaemonActivity.source) }
        return progress
    }

    /// `source(_:)` reads one source of a download from several at once, as the engine's
    /// activity feed lists it (`getServers`' keys); `nil` for one that does not read.
    static func source(_ value: JSONValue) -> SourceReport? {
        guard let fields = value.objectValue, let text = fields["uri"]?.stringValue, let url = URL(string: text) else { return nil }
        return SourceReport(url: url, state: fields["ferry-state"]?.stringValue ?? "active",
                            connections: Int(fields["ferry-connections"]?.integerValue ?? 0), bytes: fields["ferry-bytes"]?.integerValue ?? 0,
                            speed: fields["downloadSpeed"]?.integerValue ?? 0, badPieces: Int(fields["ferry-bad-pieces"]?.integerValue ?? 0),
                            reason: fields["ferry-reason"]?.stringValue)
    }
}
