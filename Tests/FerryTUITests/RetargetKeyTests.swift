import FerryQueue
import Foundation
import Testing
@testable import FerryTUI

/// `R` gives the selected download a new URL (an expired link replaced): typed in the message
/// line, checked before anything is sent, carried out by the controller on the journal.
@Suite struct RetargetKeyTests {
    @Test func rOpensAPromptWhoseURLsGoToTheSelectedDownload() throws {
        var screen = Fixtures.state(width: 120, height: 16, rows: [Fixtures.row(1, "a.iso", .paused, total: 10)])
        #expect(Fixtures.press([.character("R")], in: &screen).isEmpty)
        #expect(Fixtures.render(screen).contains { $0.contains("#1 new URL: ") }, "\(Fixtures.render(screen))")
        let effects = Fixtures.press(Fixtures.type("https://fresh.example/a.iso?token=s3cret https://m.example/a.iso") + [.enter], in: &screen)
        let urls = [try TransferURL(validating: "https://fresh.example/a.iso?token=s3cret"), try TransferURL(validating: "https://m.example/a.iso")]
        #expect(effects == [.perform(.retarget(1, urls))])
        #expect(screen.state.mode == .list)
        #expect(screen.state.message?.text.contains("s3cret") == false, "\(String(describing: screen.state.message))")

        // A URL that is not one is said, and nothing is sent; Escape sends nothing either.
        _ = Fixtures.press([.character("R")], in: &screen)
        #expect(Fixtures.press(Fixtures.type("ftp:/nowhere") + [.enter], in: &screen).isEmpty)
        #expect(screen.state.message?.isError == true)
        _ = Fixtures.press([.character("R")], in: &screen)
        #expect(Fixtures.press(Fixtures.type("https://x.example/") + [.escape], in: &screen).isEmpty)
    }

    @Test func aRunningDownloadOrAnUploadTakesNoNewURL() {
        var running = Fixtures.state(rows: [Fixtures.row(1, "a.iso", .running, total: 10)])
        #expect(Fixtures.press([.character("R")], in: &running).isEmpty)
        #expect(running.state.mode == .list && running.state.message?.text.contains("Pause #1 first") == true)
        var upload = Fixtures.state(rows: [Fixtures.row(2, "up.bin", .queued, kind: .upload)])
        #expect(Fixtures.press([.character("R")], in: &upload).isEmpty)
        #expect(upload.state.mode == .list)
    }

    @Test func theControllerGivesAPausedDownloadItsNewURLAndQueuesItAgain() throws {
        var id = TaskID(rawValue: 0)
        let harness = try ControllerHarness { journal, directory in
            id = try journal.insert(ControllerHarness.download("http://127.0.0.1:9/old.bin", in: directory.path, name: "f.bin", paused: true))
        }
        #expect(harness.waitUntil { $0.state.listCount == 1 })
        harness.send(.retarget(id.rawValue, [try TransferURL(validating: "http://127.0.0.1:9/new.bin")]))
        #expect(harness.waitUntil { $0.row(named: "f.bin")?.state == .queued })
        #expect(try harness.journal.task(id)?.spec.urls.map(\.string) == ["http://127.0.0.1:9/new.bin"])
    }
}
