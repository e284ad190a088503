import Testing
@testable import FerryTUI

/// `--bell`: the bell rings once when the last running or queued task ends, and only when asked for.
@Suite struct BellTests {
    private func stats(_ rows: [TaskRow]) -> TUIEvent { .stats(TaskStats(rows: rows)) }

    private func state(bell: Bool) -> TUIState {
        var environment = TUIEnvironment(defaultDirectory: "/dl")
        environment.ringsWhenQueueEmpties = bell
        return TUIState(environment: environment)
    }

    @Test func theBellRingsWhenTheQueueEmpties() {
        var state = state(bell: true)
        #expect(!state.apply([stats([Fixtures.row(1, "a", .running), Fixtures.row(2, "b", .queued)])]).contains(.bell))
        #expect(!state.apply([stats([Fixtures.row(1, "a", .done), Fixtures.row(2, "b", .running)])]).contains(.bell))
        #expect(state.apply([stats([Fixtures.row(1, "a", .done), Fixtures.row(2, "b", .failed)])]).contains(.bell))
        // Nothing more to end: no second ring.
        #expect(!state.apply([stats([Fixtures.row(1, "a", .done), Fixtures.row(2, "b", .failed)])]).contains(.bell))
    }

    @Test func noBellUnlessAskedForOrWhenNothingRan() {
        var quiet = state(bell: false)
        _ = quiet.apply([stats([Fixtures.row(1, "a", .running)])])
        #expect(!quiet.apply([stats([Fixtures.row(1, "a", .done)])]).contains(.bell))
        var idle = state(bell: true)
        #expect(!idle.apply([stats([Fixtures.row(1, "a", .done)])]).contains(.bell))
    }
}
