import FerryQueue
import FerryTestSupport
import Foundation
import Testing
@testable import FerryTUI

/// The add dialog offers the directory of the last download added.
@Suite struct DirectoryMemoryTests {
    @Test func theDialogOffersTheLastDirectoryInTheSession() {
        var state = Fixtures.state()
        Fixtures.press([.character("a")] + Fixtures.type("https://example.com/a") + [.tab, .control("u")]
            + Fixtures.type("~/isos") + [.enter], in: &state)
        Fixtures.press([.character("a")], in: &state)
        guard case .form(let dialog) = state.mode else {
            Issue.record("mode is \(state.mode)")
            return
        }
        #expect(dialog.fields[1].value == "/home/u/isos")
    }

    @Test func aRememberedDirectoryFromAnEarlierRunPrefillsTheDialog() {
        var state = TUIState(environment: TUIEnvironment(defaultDirectory: "/dl", lastDirectory: "/srv/last"))
        _ = state.update(.key(.character("a")))
        guard case .form(let dialog) = state.mode else { return }
        #expect(dialog.fields[1].value == "/srv/last")
    }

    @Test func theMemoryIsAFileInTheStateDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "ferry-memory")
        defer { directory.remove() }
        let memory = DirectoryMemory(stateDirectory: directory.path)
        #expect(memory.load() == nil)
        memory.save(directory.path)
        #expect(memory.load() == directory.path)
        #expect(try FileManager.default.attributesOfItem(atPath: memory.path)[.posixPermissions] as? Int == 0o600)
        // A directory that is gone, or a relative path, is not offered
        memory.save(directory.path + "/gone")
        #expect(memory.load() == nil)
        memory.save("relative")
        #expect(memory.load() == nil)
    }

    @Test func theControllerRemembersTheDirectoryOfEachDownloadAdded() throws {
        let state = try TemporaryDirectory(prefix: "ferry-memory-state")
        defer { state.remove() }
        let memory = DirectoryMemory(stateDirectory: state.path)
        let harness = try ControllerHarness(directoryMemory: memory)
        harness.settle()
        harness.send(.addDownload(DownloadRequest(url: "http://127.0.0.1:9/file.zip", directory: harness.directory.path)))
        #expect(harness.waitUntil { $0.row(named: "file.zip") != nil })
        #expect(memory.load() == harness.directory.path)
    }
}
