@testable import FerryTUI

/// `Fixtures` builds rows and states for the widget and state tests.
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

    static func state(width: Int = 80, height: Int = 24, rows: [TaskRow] = [], files: Set<String> = []) -> TUIState {
        let environment = TUIEnvironment(defaultDirectory: "/dl", homeDirectory: "/home/u", isReadableFile: { files.contains($0) })
        var state = TUIState(size: Size(width: width, height: height), environment: environment)
        _ = state.apply([.replaceTasks(rows)])
        return state
    }

    /// `press(_:in:)` sends keys one by one and collects the effects.
    @discardableResult
    static func press(_ keys: [Key], in state: inout TUIState) -> [TUIEffect] {
        keys.flatMap { state.update(.key($0)) }
    }

    /// `type(_:)` types text as individual character keys.
    static func type(_ text: String) -> [Key] { text.map { .character($0) } }

    static func render(_ state: TUIState) -> [String] { Renderer.render(state).lines() }
}
