import Testing
@testable import FerryTUI

/// Bracketed paste: pasted text is never read as keys.
@Suite struct PasteTests {
    static let rows = [Fixtures.row(1, "keep.iso", .done, total: 100), Fixtures.row(2, "other.iso")]

    private func dialog(_ state: Screen) -> FormDialog? {
        if case .form(let dialog) = state.mode { dialog } else { nil }
    }

    @Test func twoPastedURLsWithXAndDBecomeTwoDownloadsAfterOneEnterAndNothingIsRemoved() throws {
        // Given the add dialog open over a list whose first task is selected
        var state = Fixtures.state(width: 80, height: 24, rows: Self.rows)
        Fixtures.press([.character("a")], in: &state)
        // When two URLs (containing x and d, the remove keys) are pasted, one per line
        var effects = state.update(.paste("https://example.com/x/one.iso\r\nhttps://example.com/d/xd.iso\n"))
        // Then nothing happened yet: the dialog holds both URLs and says what Enter will do
        #expect(effects.isEmpty)
        let open = try #require(dialog(state))
        #expect(open.urls == ["https://example.com/x/one.iso", "https://example.com/d/xd.iso"])
        #expect(Fixtures.render(state).contains { $0.contains("2 URLs: Enter adds 2 downloads") })
        // When the user confirms once
        effects = Fixtures.press([.enter], in: &state)
        // Then exactly two downloads come out, into the dialog's directory, and no removal
        #expect(effects == [
            .perform(.addDownload(DownloadRequest(url: "https://example.com/x/one.iso", directory: "/dl"))),
            .perform(.addDownload(DownloadRequest(url: "https://example.com/d/xd.iso", directory: "/dl"))),
        ])
        #expect(state.mode == .list)
        #expect(state.message == StatusMessage("2 downloads added"))
    }

    @Test func severalURLsRefuseANameOrAChecksum() {
        var state = Fixtures.state()
        Fixtures.press([.character("a")], in: &state)
        _ = state.update(.paste("https://example.com/1\nhttps://example.com/2"))
        let effects = Fixtures.press([.tab, .tab] + Fixtures.type("name.bin") + [.enter], in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.problem == "A name can be given for one URL only")
        #expect(dialog(state)?.focus == 2)
    }

    @Test func aBadURLAmongSeveralIsNamed() {
        var state = Fixtures.state()
        Fixtures.press([.character("a")], in: &state)
        _ = state.update(.paste("https://example.com/1\nftp://example.com/2"))
        #expect(Fixtures.press([.enter], in: &state).isEmpty)
        #expect(dialog(state)?.problem == "ftp://example.com/2: Only http:// and https:// URLs are supported")
    }

    @Test func aPasteInTheListOpensTheAddDialogWithIt() {
        // Given the list, a task selected
        var state = Fixtures.state(rows: Self.rows)
        // When text with x, d and a line break is pasted outside any dialog
        let effects = state.update(.paste("https://example.com/x.iso\nd"))
        // Then nothing is performed: the add dialog opens holding the pasted text
        #expect(effects.isEmpty)
        #expect(dialog(state)?.kind == .download)
        #expect(dialog(state)?.fields[0].value == "https://example.com/x.iso d")
        // And a blank paste opens nothing
        var other = Fixtures.state(rows: Self.rows)
        _ = other.update(.paste(" \n\t"))
        #expect(other.mode == .list)
    }

    @Test func modalsWithoutTextIgnoreAPaste() {
        var state = Fixtures.state(rows: Self.rows)
        Fixtures.press([.character("x")], in: &state)
        let question = state.mode
        #expect(state.update(.paste("y")).isEmpty)
        #expect(state.mode == question)
        Fixtures.press([.escape, .character("?")], in: &state)
        #expect(state.update(.paste("q")).isEmpty)
        #expect(state.mode == .help(scroll: 0))
    }

    @Test func aPasteIntoTheFilterIsOneLineAndUploadFilesAreCommaSeparated() {
        var state = Fixtures.state(rows: Self.rows)
        Fixtures.press([.character("/")], in: &state)
        _ = state.update(.paste("keep\n.iso"))
        #expect(state.filter == "keep .iso")

        var upload = Fixtures.state(files: ["/a", "/b"])
        Fixtures.press([.character("u"), .tab], in: &upload)
        _ = upload.update(.paste("/a\n/b\n"))
        #expect(dialog(upload)?.fields[1].value == "/a, /b")
    }

    @Test func pastedControlCharactersAreDropped() {
        #expect(FormDialog.pastedLines("a\u{1B}[2Jb\u{7}\n\u{202E}c\td") == ["a[2Jb", "c d"])
    }
}
