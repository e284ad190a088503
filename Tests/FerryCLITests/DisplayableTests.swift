import Testing
@testable import ferry

/// `String.displayable`, which every name, URL and error printed to a terminal goes through
/// (catalogue 20): control and format characters become `\u{..}` escapes, the rest is kept.
@Suite struct DisplayableTests {
    @Test func printableTextIsKeptAsItIs() {
        #expect("/srv/dl/report 2026.pdf".displayable == "/srv/dl/report 2026.pdf")
        #expect("résumé 東京.txt".displayable == "résumé 東京.txt")
        #expect("".displayable == "")
    }

    @Test func controlAndFormatCharactersAreEscaped() {
        // An escape sequence that would colour the rest of the line, a carriage return that
        // would overwrite it, and a right-to-left override that would reorder it.
        #expect("a\u{1B}[31mb".displayable == "a\\u{1b}[31mb")
        #expect("done\rfailed".displayable == "done\\u{d}failed")
        #expect("invoice\u{202E}fdp.exe".displayable == "invoice\\u{202e}fdp.exe")
        #expect("tab\there".displayable == "tab\\u{9}here")
        #expect("del\u{7F}".displayable == "del\\u{7f}")
    }
}
