import Testing
@testable import FerryTUI

/// The header shows the download speed all transfers share; `+`/`-` step it and `L` types it.
@Suite struct OverallLimitKeysTests {
    private func limits(_ overall: Int64?) -> TransferLimits {
        TransferLimits(maximumConcurrent: 5, maximumPerHost: 4, overallDownload: overall)
    }

    @Test func theHeaderShowsTheSharedLimitAndTheKeysStepIt() {
        var screen = LimitKeysTests.screen(limits: limits(2 << 20))
        let header = Fixtures.render(screen).first ?? ""
        #expect(header.contains("5 at once · 4/host · max 2.0 MB/s") || header.contains("max 2"), "\(header)")
        #expect(Fixtures.press([.character("+")], in: &screen) == [.perform(.setLimits(limits(4 << 20)))])
        #expect(Fixtures.press([.character("-")], in: &screen) == [.perform(.setLimits(limits(2 << 20)))])
        #expect(Fixtures.press([.character("-")], in: &screen) == [.perform(.setLimits(limits(1 << 20)))])
        #expect(screen.state.message == StatusMessage("All downloads together at most 1M/s"))
        // Above the last step is no limit; below the first stays at the first.
        var top = LimitKeysTests.screen(limits: limits(TransferLimits.overallSteps.last))
        #expect(Fixtures.press([.character("+")], in: &top) == [.perform(.setLimits(limits(nil)))])
        #expect(top.state.message == StatusMessage("No shared download limit"))
        var bottom = LimitKeysTests.screen(limits: limits(TransferLimits.overallSteps.first))
        #expect(Fixtures.press([.character("-")], in: &bottom) == [.perform(.setLimits(limits(TransferLimits.overallSteps.first)))])
    }

    @Test func lOpensAPromptThatTakesARateOrOff() {
        var screen = LimitKeysTests.screen(limits: limits(nil))
        #expect(Fixtures.press([.character("L")], in: &screen).isEmpty)
        #expect(Fixtures.render(screen).contains { $0.contains("Shared download limit") })
        #expect(Fixtures.press("750K".map { .character($0) } + [.enter], in: &screen) == [.perform(.setLimits(limits(750 << 10)))])
        #expect(screen.state.mode == .list)
        // A bad rate is refused with the reason, nothing sent.
        _ = Fixtures.press([.character("L")], in: &screen)
        let bad = Fixtures.press([.control("u")] + "12Q".map { .character($0) } + [.enter], in: &screen)
        #expect(bad.isEmpty)
        #expect(screen.state.message?.isError == true && screen.state.message?.text.contains("12Q") == true, "\(String(describing: screen.state.message))")
        // off lifts it; Escape changes nothing.
        _ = Fixtures.press([.character("L")], in: &screen)
        #expect(Fixtures.press([.control("u")] + "off".map { .character($0) } + [.enter], in: &screen) == [.perform(.setLimits(limits(nil)))])
        _ = Fixtures.press([.character("L")], in: &screen)
        #expect(Fixtures.press([.character("9"), .escape], in: &screen).isEmpty)
        #expect(screen.state.mode == .list)
    }

    @Test func lTypesTheSelectedDownloadsOwnLimit() {
        var screen = LimitKeysTests.screen(limits: limits(nil))
        #expect(Fixtures.press([.character("l")], in: &screen).isEmpty)
        #expect(Fixtures.render(screen).contains { $0.contains("#1 download limit") })
        #expect(Fixtures.press("300K".map { .character($0) } + [.enter], in: &screen) == [.perform(.setTaskLimit(1, 300 << 10))])
        #expect(screen.state.message == StatusMessage("#1 at most 300K/s"))
        _ = Fixtures.press([.character("l")], in: &screen)
        #expect(Fixtures.press("off".map { .character($0) } + [.enter], in: &screen) == [.perform(.setTaskLimit(1, nil))])
        _ = Fixtures.press([.character("l")], in: &screen)
        #expect(Fixtures.press("1Z".map { .character($0) } + [.enter], in: &screen).isEmpty)
        #expect(screen.state.message?.isError == true)
    }

    @Test func theHeaderSaysOfflineWhileTheEngineWaitsForTheNetwork() {
        var waiting = limits(nil)
        waiting.offline = true
        let wide = LimitKeysTests.screen(limits: waiting)
        #expect(Fixtures.render(wide).first?.contains("offline · 5 at once") == true, "\(Fixtures.render(wide))")
        var narrow = Fixtures.state(width: 60, height: 10, rows: [Fixtures.row(1, "a.iso", .queued, total: 10)])
        var stats = narrow.state.stats
        stats.limits = waiting
        _ = narrow.update(.stats(stats))
        #expect(Fixtures.render(narrow).first?.contains("offline") == true, "\(Fixtures.render(narrow))")
        #expect(Fixtures.render(LimitKeysTests.screen(limits: limits(nil))).first?.contains("offline") == false)
    }
}
