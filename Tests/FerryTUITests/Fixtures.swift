@testable import FerryTUI
import FerryQueue

/// `Fixtures` builds rows and screens for the widget and state tests.
enum Fixtures {
    static func row(
        _ id: TaskRow.ID, _ name: String, _ state: TaskState = .queued, kind: TaskKind = .download,
        done: Int64 = 0, total: Int64? = nil, speed: Int64 = 0, eta: Int? = nil, position: Int? = nil
    ) -> TaskRow {
        TaskRow(
            id: id, kind: kind, name: name, state: state, position: position ?? Int(id),
            bytesDone: done, bytesTotal: total, speed: speed, eta: eta,
            urls: ["https://example.com/\(id)"], destination: "/tmp/\(id)"
        )
    }

    /// `state(width:height:rows:files:)` is a front end showing `rows`, driven by an in-memory table.
    static func state(width: Int = 80, height: Int = 24, rows: [TaskRow] = [], files: Set<String> = []) -> Screen {
        let environment = TUIEnvironment(defaultDirectory: "/dl", homeDirectory: "/home/u", isReadableFile: { files.contains($0) })
        var screen = Screen(state: TUIState(size: Size(width: width, height: height), environment: environment), table: TaskRowTable(rows))
        screen.table.load(into: &screen.state)
        return screen
    }

    /// `press(_:in:)` sends keys one by one and collects the effects other than row requests,
    /// which the screen's table answers.
    @discardableResult
    static func press(_ keys: [Key], in screen: inout Screen) -> [TUIEffect] {
        keys.flatMap { screen.update(.key($0)) }
    }

    /// `type(_:)` types text as individual character keys.
    static func type(_ text: String) -> [Key] { text.map { .character($0) } }

    static func render(_ screen: Screen) -> [String] { Renderer.render(screen.state).lines() }
}

/// `Screen` is a `TUIState` with a `TaskRowTable` answering its row requests at once, as a
/// controller would: the table holds the tasks, the state the rows it asked for.
@dynamicMemberLookup
struct Screen {
    var state: TUIState
    var table: TaskRowTable

    subscript<T>(dynamicMember keyPath: KeyPath<TUIState, T>) -> T { state[keyPath: keyPath] }

    /// `update(_:)` applies one event and answers the requests it produces; returns the other effects.
    mutating func update(_ event: TUIEvent) -> [TUIEffect] { apply([event]) }

    /// `apply(_:)` applies events and answers the requests they produce; returns the other effects.
    mutating func apply(_ events: [TUIEvent]) -> [TUIEffect] {
        table.answer(state.apply(events), in: &state)
    }

    /// `upsert(_:)` adds or changes tasks in the table and shows the change.
    mutating func upsert(_ rows: [TaskRow]) {
        table.upsert(rows)
        table.load(into: &state)
    }

    /// `remove(_:)` removes tasks from the table and shows the change.
    mutating func remove(_ ids: [TaskRow.ID]) {
        table.remove(ids)
        table.load(into: &state)
    }

    func row(at index: Int) -> TaskRow? { state.row(at: index) }

    /// `visible` are the ids of the listed rows in order, `-1` for a row not loaded.
    var visible: [TaskRow.ID] { (0..<state.listCount).map { state.row(at: $0)?.id ?? -1 } }
}
