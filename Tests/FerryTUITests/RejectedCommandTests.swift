import Testing
@testable import FerryTUI

@Suite struct RejectedCommandTests {
    /// `submitDownload(_:in:)` fills the add-download dialog's URL and submits it.
    static func submitDownload(_ url: String, in state: inout Screen) -> TUICommand? {
        let effects = Fixtures.press([.character("a")] + Fixtures.type(url) + [.enter], in: &state)
        for case .perform(let command) in effects { return command }
        return nil
    }

    @Test func aRejectionReopensTheDialogWithTheTypedFieldsAndTheProblem() throws {
        // Given a download submitted through the dialog
        var state = Fixtures.state()
        let command = try #require(Self.submitDownload("https://example.com/a.iso", in: &state))
        #expect(state.mode == .list)
        // When the application refuses it, naming the directory field
        _ = state.update(.rejected(command, FieldProblem("No such directory: /dl", field: 1)))
        // Then the same dialog is back, focused on that field, the problem shown inside
        guard case .form(let dialog) = state.mode else {
            Issue.record("mode is \(state.mode)")
            return
        }
        #expect(dialog.fields[0].value == "https://example.com/a.iso")
        #expect(dialog.focus == 1)
        #expect(dialog.problem == "No such directory: /dl")
        #expect(Fixtures.render(state).contains { $0.contains("No such directory: /dl") })
        #expect(state.message == nil)
    }

    @Test func aRejectionWhileAnotherModalIsOpenGoesToTheMessageLine() throws {
        // Given a submitted download and then the help screen opened
        var state = Fixtures.state()
        let command = try #require(Self.submitDownload("https://example.com/a.iso", in: &state))
        Fixtures.press([.character("?")], in: &state)
        // When the refusal arrives
        _ = state.update(.rejected(command, FieldProblem("Not a directory: /dl", field: 1)))
        // Then the help stays open and the problem is an error note
        #expect(state.mode == .help(scroll: 0))
        #expect(state.message == StatusMessage("Not a directory: /dl", isError: true))
    }

    @Test func aRejectionOfAnOlderCommandDoesNotReopenANewerDialog() throws {
        // Given two downloads submitted one after the other
        var state = Fixtures.state()
        let first = try #require(Self.submitDownload("https://example.com/1", in: &state))
        _ = try #require(Self.submitDownload("https://example.com/2", in: &state))
        // When the first is refused
        _ = state.update(.rejected(first, FieldProblem("Another task already saves to /dl/1", field: 2)))
        // Then the list keeps the keys and the problem is shown as an error
        #expect(state.mode == .list)
        #expect(state.message?.isError == true)
    }
}
