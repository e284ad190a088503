import FerryTestSupport
import Foundation
import Testing

/// An unknown command or option is answered with the nearest one the command line has, not
/// with the terminal UI's usage line (`ferry` alone opens the terminal UI).
@Suite struct CommandSuggestionTests {
    @Test func anUnknownCommandSuggestsTheNearest() throws {
        // Given a state directory nobody uses.
        let state = try TemporaryDirectory()
        defer { state.remove() }

        // When ferry runs with misspelt commands, and with a word far from every command.
        let swapped = try runFerry(["gte", "http://127.0.0.1:9/x"], stateDirectory: state.url)
        let dropped = try runFerry(["lst"], stateDirectory: state.url)
        let far = try runFerry(["frobnicate"], stateDirectory: state.url)

        // Then each exits 2 naming the nearest command, or listing them, never the UI's usage.
        #expect(swapped.exitStatus == 2 && swapped.stderr.contains("unknown command 'gte'. Did you mean 'get'?"), "\(swapped.stderr)")
        #expect(dropped.exitStatus == 2 && dropped.stderr.contains("Did you mean 'list'?"), "\(dropped.stderr)")
        #expect(far.exitStatus == 2 && far.stderr.contains("The commands are: get, put,") && !far.stderr.contains("_netmon"), "\(far.stderr)")
        for result in [swapped, dropped, far] {
            #expect(!result.stderr.contains("ferry tui"), "\(result.stderr)")
        }
    }

    @Test func anUnknownOptionSuggestsTheNearestOfItsCommand() throws {
        // Given a state directory nobody uses.
        let state = try TemporaryDirectory()
        defer { state.remove() }

        // When options are misspelt for get and put.
        let get = try runFerry(["get", "--overwirte", "http://127.0.0.1:9/x"], stateDirectory: state.url)
        let put = try runFerry(["put", "--methd", "POST", "http://127.0.0.1:9/x"], stateDirectory: state.url)

        // Then each exits 2 naming the nearest option of that command.
        #expect(get.exitStatus == 2 && get.stderr.contains("Did you mean '--overwrite'?"), "\(get.stderr)")
        #expect(put.exitStatus == 2 && put.stderr.contains("Did you mean '--method'?"), "\(put.stderr)")
    }

    @Test func wgetsContinueSaysWhatDashCIs() throws {
        // Given a state directory nobody uses.
        let state = try TemporaryDirectory()
        defer { state.remove() }

        // When ferry get is given -c before its URL, as wget's continue.
        let get = try runFerry(["get", "-c", "http://127.0.0.1:9/x"], stateDirectory: state.url)

        // Then it exits 2 saying -c is the cookie jar and how a download resumes.
        #expect(get.exitStatus == 2, "\(get.stderr)")
        #expect(get.stderr.contains("-c is the cookie jar (curl's -c FILE), not wget's continue"), "\(get.stderr)")
    }
}
