import Testing
@testable import FerryTUI

@Suite struct DisplayTextTests {
    @Test func controlCharactersBecomePlaceholders() {
        #expect(DisplayText.sanitize("a\u{1B}[2Jb\r\n\tc\u{7F}\u{9B}") == "a\u{FFFD}[2Jb\u{FFFD}\u{FFFD}\u{FFFD}c\u{FFFD}\u{FFFD}")
    }

    @Test func bidiControlsBecomePlaceholders() {
        let name = "invoice\u{202E}fdp.exe \u{2066}x\u{2069} \u{200E}\u{200F}\u{061C}"
        let clean = DisplayText.sanitize(name)
        #expect(!clean.unicodeScalars.contains(where: DisplayText.isUnsafe))
        #expect(clean == "invoice\u{FFFD}fdp.exe \u{FFFD}x\u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test func cleanTextIsUnchanged() {
        #expect(DisplayText.sanitize("日本語 📷 café") == "日本語 📷 café")
    }

    @Test func truncationEndsInAnEllipsisOnAColumnBoundary() {
        #expect(DisplayText.truncate("abcdef", toWidth: 4) == "abc…")
        #expect(DisplayText.truncate("abcd", toWidth: 4) == "abcd")
        #expect(DisplayText.truncate("日本語ファイル", toWidth: 6) == "日本…")
        #expect(DisplayText.truncate("日本語ファイル", toWidth: 5) == "日本…")
        #expect(DisplayText.truncate("📷📷📷", toWidth: 4) == "📷…")
        #expect(DisplayText.truncate("abc", toWidth: 1) == "…")
        #expect(DisplayText.truncate("abc", toWidth: 0) == "")
    }

    @Test func truncationKeepsCombiningMarksWithTheirBase() {
        #expect(DisplayText.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
    }

    @Test func fitPadsToTheExactWidth() {
        #expect(DisplayText.fit("日本語ファイル", toWidth: 5) == "日本…")
        #expect(DisplayText.fit("日本語ファイル", toWidth: 6) == "日本… ")
        #expect(DisplayText.fit("ab", toWidth: 4, alignRight: true) == "  ab")
        #expect(DisplayWidth.of(DisplayText.fit("📷📷📷", toWidth: 4)) == 4)
    }
}
