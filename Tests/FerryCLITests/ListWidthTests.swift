import FerryTUI
import FerryTestSupport
import Foundation
import Testing

/// `ferry list` on a terminal: a header, and every line fitted to the width (the columns it
/// has no room for left out, the name kept), CJK names counted as two columns each.
@Suite struct ListWidthTests {
    @Test(arguments: [40, 70, 120])
    func everyLineFitsTheTerminal(width: Int) throws {
        try #require(TmuxTerminal.isAvailable, "tmux is not installed")
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let added = try runFerry(["add", "-d", state.file("out").path, "http://127.0.0.1:9/a.iso",
                                  "http://127.0.0.1:9/%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%81%AE%E5%90%8D%E5%89%8D.bin"],
                                 stateDirectory: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")
        let terminal = try TmuxTerminal(command: [try ferryExecutableURL().path, "list", "--state-dir", state.path], width: width, height: 8)
        #expect(terminal.waitUntil(seconds: 20) { terminal.exitLine() != nil })
        let lines = terminal.screen().filter { !$0.isEmpty && !$0.hasPrefix("EXIT=") }
        #expect(lines.count == 3, "a header and two tasks, none wrapped: \(lines)")
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("NAME") == true, "\(lines)")
        #expect(lines.contains { $0.contains("a.iso") }, "\(lines)")
        #expect(lines.contains { $0.contains("日本語") }, "\(lines)")
    }

    @Test func theColumnsLineUpWithWideNames() throws {
        // Given tasks named in ASCII, in CJK (two columns a character) and at length
        try #require(TmuxTerminal.isAvailable, "tmux is not installed")
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let added = try runFerry(["add", "-d", state.file("out").path, "http://127.0.0.1:9/a.iso",
                                  "http://127.0.0.1:9/%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%81%AE%E5%90%8D%E5%89%8D.bin",
                                  "http://127.0.0.1:9/a-long-name-for-a-disk-image.iso"],
                                 stateDirectory: state.url)
        #expect(added.exitStatus == 0, "\(added.stderr)")

        // When ferry list runs on a terminal 120 columns wide
        let terminal = try TmuxTerminal(command: [try ferryExecutableURL().path, "list", "--state-dir", state.path], width: 120, height: 8)
        #expect(terminal.waitUntil(seconds: 20) { terminal.exitLine() != nil })
        let lines = terminal.screen().filter { !$0.isEmpty && !$0.hasPrefix("EXIT=") }

        // Then the URLs start in one terminal column, under the header's URL
        func column(of text: String, in line: String) -> Int? {
            line.range(of: text).map { DisplayWidth.of(String(line[..<$0.lowerBound])) }
        }
        #expect(lines.count == 4, "\(lines)")
        let starts = lines.dropFirst().map { column(of: "http://", in: $0) }
        #expect(starts.count == 3 && Set(starts).count == 1 && starts.first == column(of: "URL", in: lines.first ?? ""), "\(lines)")
    }
}
