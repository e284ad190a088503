import Testing
@testable import FerryTUI

/// The header shows the engine's limits; `]`/`[` and `}`/`{` change them while it runs.
@Suite struct LimitKeysTests {
    static func screen(limits: TransferLimits?) -> Screen {
        var screen = Fixtures.state(width: 120, height: 16, rows: [Fixtures.row(1, "a.iso", .running, total: 10)])
        var stats = screen.state.stats
        stats.limits = limits
        _ = screen.update(.stats(stats))
        return screen
    }

    @Test func theHeaderShowsTheLimitsAndTheKeysMoveThemWithinTheirRange() {
        var screen = Self.screen(limits: TransferLimits(maximumConcurrent: 5, maximumPerHost: 4))
        #expect(Fixtures.render(screen).first?.contains("5 at once · 4/host") == true, "\(Fixtures.render(screen))")
        #expect(Fixtures.press([.character("]")], in: &screen) == [.perform(.setLimits(TransferLimits(maximumConcurrent: 6, maximumPerHost: 4)))])
        #expect(Fixtures.render(screen).first?.contains("6 at once · 4/host") == true)
        #expect(screen.state.message == StatusMessage("At most 6 transfers at once, 4 to one host"))
        #expect(Fixtures.press([.character("{")], in: &screen) == [.perform(.setLimits(TransferLimits(maximumConcurrent: 6, maximumPerHost: 3)))])
        #expect(Fixtures.press([.character("}")], in: &screen) == [.perform(.setLimits(TransferLimits(maximumConcurrent: 6, maximumPerHost: 4)))])
        // Never below one.
        var single = Self.screen(limits: TransferLimits(maximumConcurrent: 1, maximumPerHost: 1))
        #expect(Fixtures.press([.character("[")], in: &single).isEmpty)
        #expect(single.state.message == StatusMessage("Limits stay between 1 and 999"))
    }

    @Test func withoutLimitsFromTheEngineTheKeysSaySoAndTheHeaderHasNone() {
        var screen = Self.screen(limits: nil)
        #expect(Fixtures.render(screen).first?.contains("at once") == false)
        #expect(Fixtures.press([.character("]")], in: &screen).isEmpty)
        #expect(screen.state.message == StatusMessage("The engine has not told its limits yet"))
    }
}
