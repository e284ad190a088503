import Testing
@testable import FerryTUI

@Suite struct DialogTests {
    private func openDownload(_ state: inout Screen) {
        Fixtures.press([.character("a")], in: &state)
    }

    private func dialog(_ state: Screen) -> FormDialog? {
        if case .form(let dialog) = state.mode { dialog } else { nil }
    }

    @Test func validDownloadEmitsOneCommandAndCloses() {
        // Given an open add-download dialog
        var state = Fixtures.state()
        openDownload(&state)
        // When the user fills URL, keeps the directory, types a name and a checksum, then submits
        let hex = String(repeating: "ab", count: 32)
        let effects = Fixtures.press(
            Fixtures.type("  https://example.com/f.iso ") + [.tab, .tab] + Fixtures.type("f.iso") + [.tab]
                + Fixtures.type("SHA256=\(hex)") + [.enter],
            in: &state)
        // Then exactly one validated command comes out and the dialog is gone
        #expect(effects == [.perform(.addDownload(DownloadRequest(
            url: "https://example.com/f.iso", directory: "/dl", name: "f.iso", checksum: "sha256=\(hex)")))])
        #expect(state.mode == .list)
    }

    @Test func invalidUrlIsReportedInsideTheDialogAndNothingIsEmitted() {
        var state = Fixtures.state()
        openDownload(&state)
        let effects = Fixtures.press(Fixtures.type("ftp://example.com/x") + [.tab, .enter], in: &state)
        #expect(effects.isEmpty)
        let open = dialog(state)
        #expect(open?.problem == "Only http:// and https:// URLs are supported")
        #expect(open?.focus == 0)
        let screen = Fixtures.render(state)
        #expect(screen.contains { $0.contains("Only http:// and https:// URLs are supported") })
    }

    @Test func badNameAndChecksumFocusTheirField() {
        var state = Fixtures.state()
        openDownload(&state)
        var effects = Fixtures.press(Fixtures.type("http://h/x") + [.tab, .tab] + Fixtures.type("a/b") + [.enter], in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.focus == 2)
        effects = Fixtures.press([.control("u"), .tab] + Fixtures.type("md5=zz") + [.enter], in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.focus == 3)
        #expect(dialog(state)?.problem == "md5 needs 32 hex digits")
    }

    @Test func splitTakesOneToSixteenConnections() {
        // Given an add-download dialog with a URL and 20 connections asked for
        var state = Fixtures.state()
        openDownload(&state)
        var effects = Fixtures.press(Fixtures.type("http://h/x") + [.tab, .tab, .tab, .tab] + Fixtures.type("20") + [.enter], in: &state)
        // Then nothing is added and the Split field says why
        #expect(effects.isEmpty)
        #expect(dialog(state)?.focus == 4)
        #expect(dialog(state)?.problem == "Split: connections from 1 to 16")
        // When 8 are asked for, the download carries them
        effects = Fixtures.press([.control("u")] + Fixtures.type("8") + [.enter], in: &state)
        #expect(effects == [.perform(.addDownload(DownloadRequest(url: "http://h/x", directory: "/dl", connections: 8)))])
    }

    @Test func theSpeedCapTakesARate() {
        // Given an add-download dialog with a URL and a speed cap that is no rate
        var state = Fixtures.state()
        openDownload(&state)
        var effects = Fixtures.press(Fixtures.type("http://h/x") + [.backTab] + Fixtures.type("fast") + [.enter], in: &state)
        // Then nothing is added and the Speed cap field says why
        #expect(effects.isEmpty)
        #expect(dialog(state)?.focus == 5)
        #expect(dialog(state)?.problem == "Speed cap: a rate such as 500K or 2M")
        // When 500K is given, the download carries 512,000 bytes a second
        effects = Fixtures.press([.control("u")] + Fixtures.type("500K") + [.enter], in: &state)
        #expect(effects == [.perform(.addDownload(DownloadRequest(url: "http://h/x", directory: "/dl", speedLimit: 500 * 1024)))])
    }

    @Test func escapeCancelsWithoutEmitting() {
        var state = Fixtures.state()
        openDownload(&state)
        let effects = Fixtures.press(Fixtures.type("http://h/x") + [.escape], in: &state)
        #expect(effects.isEmpty)
        #expect(state.mode == .list)
    }

    @Test func tildeInDirectoryIsExpanded() {
        var state = Fixtures.state()
        openDownload(&state)
        let effects = Fixtures.press(Fixtures.type("http://h/x") + [.tab, .control("u")] + Fixtures.type("~/in") + [.enter], in: &state)
        #expect(effects == [.perform(.addDownload(DownloadRequest(url: "http://h/x", directory: "/home/u/in")))])
    }

    @Test func uploadWithMissingFileIsReportedAndNothingIsEmitted() {
        var state = Fixtures.state(files: ["/home/u/a.txt"])
        Fixtures.press([.character("u")], in: &state)
        let effects = Fixtures.press(
            Fixtures.type("https://up.example/form") + [.tab] + Fixtures.type("~/a.txt, /nope.bin") + [.enter], in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.problem == "Cannot read file: /nope.bin")
        #expect(dialog(state)?.focus == 1)
    }

    @Test func validUploadEmitsFilesAndFields() {
        var state = Fixtures.state(files: ["/home/u/a.txt", "/b c.bin"])
        Fixtures.press([.character("u")], in: &state)
        let effects = Fixtures.press(
            Fixtures.type("https://up.example/form") + [.tab] + Fixtures.type("~/a.txt, /b c.bin") + [.tab]
                + Fixtures.type("title=Hello world&tag=a=b") + [.enter], in: &state)
        #expect(effects == [.perform(.addUpload(UploadRequest(
            url: "https://up.example/form",
            files: ["/home/u/a.txt", "/b c.bin"],
            fields: [.init(name: "title", value: "Hello world"), .init(name: "tag", value: "a=b")])))])
    }

    @Test func aResumableUploadNamesItsProtocolAndSendsFiles() {
        var state = Fixtures.state(files: ["/a"])
        Fixtures.press([.character("u")], in: &state)
        let effects = Fixtures.press(Fixtures.type("https://up.example/") + [.tab] + Fixtures.type("/a") + [.tab, .tab]
                                         + Fixtures.type("TUS") + [.enter], in: &state)
        #expect(effects == [.perform(.addUpload(UploadRequest(url: "https://up.example/", files: ["/a"], resumable: "tus")))])

        var other = Fixtures.state(files: ["/a"])
        Fixtures.press([.character("u")], in: &other)
        let refused = Fixtures.press(Fixtures.type("https://up.example/") + [.tab] + Fixtures.type("/a") + [.tab, .tab]
                                         + Fixtures.type("ftp") + [.enter], in: &other)
        #expect(refused.isEmpty)
        #expect(dialog(other)?.problem == "Resumable is auto, ietf or tus (or empty for a plain upload)")
        #expect(dialog(other)?.focus == 3)
    }

    @Test func uploadNeedsAFileOrAField() {
        var state = Fixtures.state()
        Fixtures.press([.character("u")], in: &state)
        let effects = Fixtures.press(Fixtures.type("https://up.example/") + [.enter], in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.problem == "Give at least one file or field")
    }

    @Test func malformedFieldsAreReported() {
        var state = Fixtures.state(files: ["/a"])
        Fixtures.press([.character("u")], in: &state)
        let effects = Fixtures.press(Fixtures.type("https://up.example/") + [.tab] + Fixtures.type("/a") + [.tab] + Fixtures.type("novalue") + [.enter], in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.focus == 2)
    }

    @Test func listKeysAreTypedIntoFieldsNotExecuted() {
        var state = Fixtures.state(rows: [Fixtures.row(1, "a")])
        openDownload(&state)
        let effects = Fixtures.press(Fixtures.type("q x/?"), in: &state)
        #expect(effects.isEmpty)
        #expect(dialog(state)?.fields[0].editor.text == "q x/?")
    }

    @Test func fieldNavigationWraps() {
        var state = Fixtures.state()
        openDownload(&state)
        Fixtures.press([.backTab], in: &state)
        #expect(dialog(state)?.focus == 5)
        Fixtures.press([.down], in: &state)
        #expect(dialog(state)?.focus == 0)
    }
}
