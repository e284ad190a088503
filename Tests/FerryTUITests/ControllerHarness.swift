import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
@testable import FerryTUI

/// `ControllerHarness` is a `QueueController` over a real journal in a temporary directory,
/// attached to a real `EventInbox` whose events are applied to a `TUIState`, as the run
/// loop would (the state's row requests go to the controller). Waiting polls the inbox's wake-up descriptor with a bounded timeout.
final class ControllerHarness {
    let directory: TemporaryDirectory
    let journal: Journal
    let controller: QueueController
    let inbox: EventInbox
    /// `clock` is the controller's clock: it stands still until a test moves it.
    let clock = TestClock()
    var state = TUIState(size: Size(width: 100, height: 30), environment: TUIEnvironment(defaultDirectory: "/"))
    /// Every event taken from the inbox, in order.
    private(set) var events: [TUIEvent] = []

    /// `beforeAttach` runs between the controller's creation and its attach (an engine that
    /// starts before the front end attaches).
    init(activity: (any TransferActivity)? = nil, directoryMemory: DirectoryMemory? = nil,
         seed: (Journal, TemporaryDirectory) throws -> Void = { _, _ in }, beforeAttach: () -> Void = {}) throws {
        directory = try TemporaryDirectory(prefix: "ferry-tui-controller")
        journal = try Journal.open(at: directory.file("journal.sqlite").path).journal
        try seed(journal, directory)
        let opened = journal
        (activity as? FakeActivity)?.journal.withLock { $0 = opened }
        controller = QueueController(journal: journal, activity: activity, directoryMemory: directoryMemory,
                                     clock: { [clock] in clock.now })
        beforeAttach()
        inbox = try EventInbox()
        controller.attach(inbox)
    }

    deinit {
        controller.close()
        try? journal.close()
        directory.remove()
    }

    /// `loadedRows` are the rows the front end holds.
    var loadedRows: [TaskRow] { state.window?.rows ?? [] }

    /// `row(named:)` is the loaded row with that name.
    func row(named name: String) -> TaskRow? { state.window?.rows.first { $0.name == name } }

    /// `visibleNames` are the names of the table's rows, in the order shown (`?` for a row not loaded).
    var visibleNames: [String] { (0..<state.listCount).map { state.row(at: $0)?.name ?? "?" } }

    /// `send(_:)` performs a command as the front end would.
    func send(_ command: TUICommand) { controller.perform(command) }

    /// `waitUntil(seconds:_:)` applies posted events until `condition` holds or the time is up.
    @discardableResult
    func waitUntil(seconds: Double = 5, _ condition: (ControllerHarness) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(self) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
            apply(inbox.takeAll())
        }
        return true
    }

    /// `apply(_:)` applies events as the run loop would: requests go to the controller, the
    /// other effects are returned.
    @discardableResult
    func apply(_ taken: [TUIEvent]) -> [TUIEffect] {
        events += taken
        var others: [TUIEffect] = []
        for effect in state.apply(taken) {
            if case .show(let request) = effect { controller.show(request) } else { others.append(effect) }
        }
        return others
    }

    /// `settle()` waits for the worker to finish queued work, then applies what it posted.
    func settle() {
        controller.waitUntilIdle()
        apply(inbox.takeAll())
    }

    /// `download(_:in:name:paused:)` is a journal task fetching `url` into `directory`.
    static func download(_ url: String, in directory: String, name: String? = nil, paused: Bool = false) throws -> NewTask {
        NewTask(spec: TaskSpec(urls: [try TransferURL(validating: url)], destinationDirectory: directory, requestedName: name), startsPaused: paused)
    }
}

/// `TestClock` is a clock that stands still until `now` is set.
final class TestClock: Sendable {
    private let time = Mutex(0.0)

    /// `now` is the time in seconds.
    var now: Double {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }
}

/// `FakeActivity` stands in for the in-process engine: it records the commands it gets and
/// lets the test emit engine events.
final class FakeActivity: TransferActivity {
    private let continuation: Mutex<AsyncStream<ActivityEvent>.Continuation?> = Mutex(nil)
    private let log = Mutex<[String]>([])

    var commands: [String] { log.withLock { $0 } }

    func events() -> AsyncStream<ActivityEvent> {
        let (stream, continuation) = AsyncStream<ActivityEvent>.makeStream()
        self.continuation.withLock { $0 = continuation }
        return stream
    }

    func emit(_ event: ActivityEvent) { _ = continuation.withLock { $0?.yield(event) } }

    func pause(_ id: TaskID) { record("pause \(id)") }
    func resume(_ id: TaskID) { record("resume \(id)") }
    func retry(_ id: TaskID) { record("retry \(id)") }
    func remove(_ id: TaskID, deleteFile: Bool) { record("remove \(id) \(deleteFile)") }
    func journalDidChange() { record("journalDidChange") }

    /// `journal` is where edits are made, as an engine makes them (the harness sets it).
    let journal = Mutex<Journal?>(nil)

    func edit(_ edit: QueueEdit, then answer: @escaping @Sendable (QueueEditOutcome) -> Void) {
        switch edit {
        case .add(let task): record("add \(task.spec.urls.first?.string ?? "-")")
        case .move(let id, let up): record("move \(id) \(up ? "up" : "down")")
        case .retarget(let id, _): record("retarget \(id)")
        case .purge(let states): record("purge \(states.map(\.rawValue).sorted())")
        }
        guard let journal = journal.withLock({ $0 }) else { return answer(.failed("no journal")) }
        answer(JournalEdits.apply(edit, to: journal))
    }

    private func record(_ line: String) { log.withLock { $0.append(line) } }
}
