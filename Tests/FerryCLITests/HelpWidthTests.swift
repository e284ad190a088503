import FerryTUI
import FerryTestSupport
import Foundation
import Testing

/// `ferry help` at 80 columns: every line fits, wrapped rather than cut with `…`.
@Suite struct HelpWidthTests {
    @Test(arguments: ["", "get", "list", "tui"])
    func helpFitsEightyColumns(command: String) throws {
        // Given a terminal 80 columns wide (COLUMNS, as swift-argument-parser reads it)
        let state = try TemporaryDirectory(prefix: "ferry-state")
        defer { state.remove() }
        let environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "80", "FERRY_STATE_DIR": state.path]) { $1 }

        // When the help is asked for
        let result = try run(executable: try ferryExecutableURL().path, arguments: ["help"] + (command.isEmpty ? [] : [command]),
                             environment: environment)

        // Then it is printed whole, no line wider than 80 columns
        #expect(result.exitStatus == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count > 5)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(lines.filter { DisplayWidth.of($0) > 80 })")
        #expect(!result.stdout.contains("…"))
    }
}
