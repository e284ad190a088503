import FerryKit
import FerryQueue
import Testing
@testable import FerryTUI

/// The add dialog's checksum takes every spelling `--checksum` takes, the limit prompts start
/// with their value selected (typing replaces it), and a failed Enter marks the field in error.
@Suite struct DialogInputTests {
    private func dialog(_ screen: Screen) -> FormDialog? {
        if case .form(let dialog) = screen.state.mode { dialog } else { nil }
    }

    private func limits(_ overall: Int64?) -> TransferLimits {
        TransferLimits(maximumConcurrent: 5, maximumPerHost: 4, overallDownload: overall)
    }

    @Test(arguments: ["sha-256", "sha256", "SHA-256", "Sha256", "md5", "MD5", "sha-1", "SHA1", "sha-512", "SHA512"])
    func theChecksumFieldTakesEverySpellingTheCommandLineTakes(_ name: String) throws {
        // Given a digest of the algorithm's length, in upper case
        let algorithm = try #require(ExpectedChecksum.Algorithm(name: name))
        let hex = String(repeating: "A", count: algorithm.hexLength)
        var screen = Fixtures.state()
        _ = Fixtures.press([.character("a")], in: &screen)

        // When it is typed in the add dialog as NAME=HEX and submitted
        let effects = Fixtures.press(Fixtures.type("https://example.com/f.iso") + [.tab, .tab, .tab]
            + Fixtures.type("\(name)=\(hex)") + [.enter], in: &screen)

        // Then the download is added with a checksum the queue reads as the command line does
        guard case .perform(.addDownload(let request)) = effects.first, let typed = request.checksum else {
            Issue.record("no download added: \(effects), \(dialog(screen)?.problem ?? "")")
            return
        }
        #expect(try Checksum(parsing: typed).expected == ExpectedChecksum(parsing: "\(name)=\(hex)"))
        #expect(screen.state.mode == .list)
    }

    @Test func aChecksumTheCommandLineRefusesIsRefusedWithTheReason() {
        #expect(ChecksumValidator.normalize("sha-256=abc") == .failure(FieldProblem("sha-256 needs 64 hex digits")))
        #expect(ChecksumValidator.normalize("crc32=abcd") == .failure(FieldProblem("Unknown checksum algorithm; use one of md5, sha-1, sha-256, sha-512")))
    }

    @Test func theSharedLimitPromptStartsSelectedSoTypingReplacesIt() {
        // Given a shared limit of 2M
        var screen = LimitKeysTests.screen(limits: limits(2 << 20))

        // When L opens the prompt
        _ = Fixtures.press([.character("L")], in: &screen)

        // Then it shows 2M selected
        let grid = Renderer.render(screen.state)
        let line = grid.lines().last { $0.contains("Shared download limit") } ?? ""
        #expect(line.contains("2M"), "\(line)")
        let y = grid.lines().lastIndex { $0.contains("Shared download limit") } ?? 0
        let x = DisplayWidth.of("Shared download limit (2M, 500K, off): ")
        #expect(grid[x, y].style == .selectedText && grid[x + 1, y].style == .selectedText)

        // When the user types 750K and Enter, then 750K is set, not 2M750K
        #expect(Fixtures.press(Fixtures.type("750K") + [.enter], in: &screen) == [.perform(.setLimits(limits(750 << 10)))])
    }

    @Test func theTaskLimitPromptShowsItsCapSelected() {
        // Given a download with its own cap of 300K
        var row = Fixtures.row(1, "a.iso", .running, total: 10)
        row.speedLimit = 300 << 10
        var screen = Fixtures.state(width: 120, height: 16, rows: [row])

        // When l opens its prompt, then the cap is there, and typing replaces it
        _ = Fixtures.press([.character("l")], in: &screen)
        #expect(Fixtures.render(screen).contains { $0.contains("#1 download limit (2M, 500K, off): 300K") })
        #expect(Fixtures.press(Fixtures.type("1M") + [.enter], in: &screen) == [.perform(.setTaskLimit(1, 1 << 20))])

        // When it opens again and Backspace clears the selection, then Enter lifts the cap
        _ = Fixtures.press([.character("l")], in: &screen)
        #expect(Fixtures.press([.backspace, .enter], in: &screen) == [.perform(.setTaskLimit(1, nil))])
    }

    @Test func aMoveEndsTheSelectionAndKeepsTheText() {
        var editor = LineEditor("2M", selected: true)
        editor.apply(.end)
        editor.insert("B")
        #expect(editor.text == "2MB" && !editor.isSelected)
        #expect(!LineEditor("", selected: true).isSelected)
    }

    @Test func aFailedEnterMarksTheFieldInErrorUntilItIsEdited() {
        // Given an add dialog with a good URL and a checksum of the wrong length, focus on the URL
        var screen = Fixtures.state()
        _ = Fixtures.press([.character("a")], in: &screen)
        _ = Fixtures.press(Fixtures.type("https://example.com/f.iso") + [.tab, .tab, .tab] + Fixtures.type("md5=abc")
            + [.tab, .tab, .tab], in: &screen)
        #expect(dialog(screen)?.focus == 0)

        // When Enter is pressed
        #expect(Fixtures.press([.enter], in: &screen).isEmpty)

        // Then the checksum field has the focus and the cursor, and it and its label are marked
        #expect(dialog(screen)?.focus == 3 && dialog(screen)?.problemField == 3)
        let grid = Renderer.render(screen.state)
        let y = grid.lines().firstIndex { $0.contains("Checksum") } ?? -1
        let labelX = grid.lines()[y].firstIndex(of: "C").map { grid.lines()[y].distance(from: grid.lines()[y].startIndex, to: $0) } ?? 0
        #expect(grid.cursor?.y == y)
        #expect(grid[labelX, y].style == .dialogError)
        let cursorX = grid.cursor?.x ?? 0
        #expect(grid[cursorX - 1, y].style == .fieldError)
        #expect(grid.lines().contains { $0.contains("md5 needs 32 hex digits") })
        let urlY = grid.lines().firstIndex { $0.contains("URL") } ?? -1
        #expect((0..<grid.size.width).allSatisfy { grid[$0, urlY].style != .fieldError })

        // When the field is edited, then it is no longer marked
        _ = Fixtures.press([.backspace], in: &screen)
        #expect(dialog(screen)?.problemField == nil)
        let after = Renderer.render(screen.state)
        #expect((0..<after.size.width).allSatisfy { after[$0, y].style != .fieldError })
    }
}
