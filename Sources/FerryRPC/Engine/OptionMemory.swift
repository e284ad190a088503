import FerryKit
import FerryQueue
import Synchronization

/// `OptionMemory` keeps what aria2's option calls set that the journal does not hold: the
/// global options of this run (`changeGlobalOption`: the default directory, the session file,
/// task options for the tasks added from then on, and aria2 options Ferry accepts without
/// using them), and each task's ignored options, so `getOption` and `getGlobalOption` answer
/// what a client set. It lives as long as the engine; a restarted daemon starts from its
/// command line and configuration again, as aria2 does.
///
/// Thread rules: every member may be called from any thread (one lock).
public final class OptionMemory: Sendable {
    private struct State {
        var directory: String?
        var saveSession: String?
        /// Task options given globally, as the texts read (a list for a repeatable option).
        var taskDefaults: [String: [String]] = [:]
        /// aria2 options given globally that Ferry does not use, with their values.
        var ignoredGlobal: [String: String] = [:]
        /// Each task's options given that Ferry does not use: name, value and why.
        var ignoredByTask: [TaskID: [String: Ignored]] = [:]
    }

    /// `Ignored` is an option accepted but not used: its value as given and why.
    public struct Ignored: Sendable, Hashable {
        public let value: String
        public let reason: String
    }

    private let state = Mutex(State())
    /// `notices` carries one line per option accepted but not used (the daemon writes them to
    /// its log).
    public let notices = EventHub<String>()

    init() {}

    /// `directory` is the default directory `changeGlobalOption` set, `nil` until then.
    var directory: String? {
        get { state.withLock { $0.directory } }
        set { state.withLock { $0.directory = newValue } }
    }

    /// `saveSession` is the file `saveSession` writes (aria2's `save-session`); `nil` until set.
    public var saveSession: String? {
        get { state.withLock { $0.saveSession } }
        set { state.withLock { $0.saveSession = newValue } }
    }

    /// `taskDefaults` are the task options given globally (applied to tasks added after).
    var taskDefaults: [String: [String]] {
        state.withLock { $0.taskDefaults }
    }

    /// `ignoredGlobal` are the global options accepted but not used, with their values.
    var ignoredGlobal: [String: String] {
        state.withLock { $0.ignoredGlobal }
    }

    /// `setGlobal(taskDefaults:ignored:)` records global options given: task options (a key
    /// given again replaces its values) and ignored ones, each ignored one told in `notices`.
    func setGlobal(taskDefaults: [String: [String]], ignored: [String: Ignored]) {
        state.withLock { state in
            state.taskDefaults.merge(taskDefaults) { _, new in new }
            for (key, option) in ignored { state.ignoredGlobal[key] = option.value }
        }
        for key in ignored.keys.sorted() {
            notices.publish("option \(key.prefix(64)) accepted but not used: \(ignored[key]?.reason ?? "")")
        }
    }

    /// `ignored(of:)` are the options of task `id` accepted but not used.
    func ignored(of id: TaskID) -> [String: Ignored] {
        state.withLock { $0.ignoredByTask[id] ?? [:] }
    }

    /// `setIgnored(_:for:)` records options of task `id` accepted but not used (added to those
    /// recorded before; an option applied later is taken off with `applied(_:for:)`), each
    /// told in `notices`.
    func setIgnored(_ ignored: [String: Ignored], for id: TaskID) {
        guard !ignored.isEmpty else { return }
        state.withLock { $0.ignoredByTask[id, default: [:]].merge(ignored) { _, new in new } }
        let gid = GID.string(for: id)
        for key in ignored.keys.sorted() {
            notices.publish("GID#\(gid): option \(key.prefix(64)) accepted but not used: \(ignored[key]?.reason ?? "")")
        }
    }

    /// `forget(_:)` drops what is kept of tasks that left the journal.
    func forget(_ ids: some Sequence<TaskID>) {
        state.withLock { state in
            for id in ids { state.ignoredByTask.removeValue(forKey: id) }
        }
    }

    /// `applied(_:for:)` takes options now applied off task `id`'s ignored ones.
    func applied(_ keys: some Sequence<String>, for id: TaskID) {
        state.withLock { state in
            for key in keys { state.ignoredByTask[id]?.removeValue(forKey: key) }
        }
    }
}

extension RPCEngine {
    /// `newTaskDirectory` is where a download added without `dir` is saved: the global `dir`
    /// a client set, else the daemon's `defaultDirectory`.
    var newTaskDirectory: String {
        options.directory ?? defaultDirectory
    }
}
