import Testing
@testable import FerryTUI

/// The filter matches names, `state:` and `host:` terms together.
@Suite struct FilterTests {
    @Test func termsAreTakenApart() {
        let filter = TaskFilter("  ISO state:fail host:Example.org  big ")
        #expect(filter.text == "iso big")
        #expect(filter.states == [.failed])
        #expect(filter.hosts == ["example.org"])
        #expect(TaskFilter("state:").isEmpty)
        #expect(TaskFilter("state:zzz").states == [])
        #expect(TaskFilter("state:done state:failed").states == [.done, .failed])
        #expect(!TaskFilter("state:done").needsNames)
        #expect(TaskFilter("host:a").needsNames)
    }

    @Test func hostsComeFromTheAuthority() {
        #expect(TaskFilter.host(of: "https://user:pw@Example.ORG:8443/a?b#c") == "example.org")
        #expect(TaskFilter.host(of: "http://[::1]:80/x") == "::1")
        #expect(TaskFilter.host(of: "http://127.0.0.1") == "127.0.0.1")
        #expect(TaskFilter.host(of: "no scheme") == nil)
    }

    @Test func stateAndHostNarrowTheListCombinedWithTheName() {
        var rows = [
            Fixtures.row(1, "a.iso", .failed), Fixtures.row(2, "b.iso", .failed),
            Fixtures.row(3, "c.iso", .done), Fixtures.row(4, "a.txt", .failed),
        ]
        rows[1].urls = ["https://mirror.example.org/b.iso"]
        var state = Fixtures.state(rows: rows)
        Fixtures.press([.character("/")] + Fixtures.type("state:failed"), in: &state)
        #expect(state.visible == [1, 2, 4])
        Fixtures.press(Fixtures.type(" .iso"), in: &state)
        #expect(state.visible == [1, 2])
        Fixtures.press(Fixtures.type(" host:example.org"), in: &state)
        #expect(state.visible == [2])
        Fixtures.press([.enter, .escape], in: &state)
        #expect(state.visible == [1, 2, 3, 4])
    }

    @Test func anEmptyResultSaysTheFilterMatchesNothing() {
        var state = Fixtures.state(width: 60, height: 10, rows: [Fixtures.row(1, "a.iso", .done)])
        Fixtures.press([.character("/")] + Fixtures.type("state:failed"), in: &state)
        #expect(Fixtures.render(state).contains { $0.contains("No task matches “state:failed”.") })
    }
}
