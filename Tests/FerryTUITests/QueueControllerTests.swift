import FerryKit
import FerryQueue
import FerryTestSupport
import Foundation
import Testing
@testable import FerryTUI

@Suite struct QueueControllerTests {
    @Test func attachPostsTheQueueInOrderWithMaskedURLsAndSizesFromTheResumeRecord() throws {
        // Given a journal with two downloads, one half done and one with a password in its URL
        let harness = try ControllerHarness { journal, directory in
            let first = try journal.insert(ControllerHarness.download("http://127.0.0.1/a/big.iso", in: directory.path))
            try journal.recordCheckpoint(first, ResumeRecord(etag: "\"v1\"", totalLength: 1000, durableOffset: 400))
            try journal.recordAttempt(first, error: "HTTP 503")
            _ = try journal.insert(ControllerHarness.download("https://user:hunter2@127.0.0.1/b?token=abc", in: directory.path, name: "b.bin", paused: true))
        }
        // When the controller is attached
        #expect(harness.waitUntil { $0.state.listCount == 2 })
        // Then the first event is the first rows, in queue order
        guard case .window(let window) = harness.events.first else {
            Issue.record("first event was \(String(describing: harness.events.first))")
            return
        }
        let rows = window.rows
        #expect(window.total == 2 && window.offset == 0)
        #expect(rows.map(\.name) == ["big.iso", "b.bin"])
        #expect(rows.map(\.priority) == [0, 0])
        #expect(rows[0].position < rows[1].position)
        let big = try #require(harness.row(named: "big.iso"))
        #expect(big.bytesDone == 400 && big.bytesTotal == 1000 && big.fraction == 0.4)
        #expect(big.attempts == 1 && big.lastError == "HTTP 503")
        #expect(big.validators.etag == "\"v1\"")
        #expect(big.destination == harness.directory.path + "/big.iso")
        let paused = try #require(harness.row(named: "b.bin"))
        #expect(paused.state == .paused)
        #expect(paused.urls.count == 1)
        #expect(!paused.urls[0].contains("hunter2") && !paused.urls[0].contains("abc"))
    }

    @Test func addingADownloadInsertsItAndListsIt() throws {
        // Given an empty queue
        let harness = try ControllerHarness()
        harness.settle()
        // When a download is added through the dialog's command
        harness.send(.addDownload(DownloadRequest(url: "http://127.0.0.1:9/file.zip", directory: harness.directory.path, checksum: "sha256=" + String(repeating: "ab", count: 32))))
        // Then it is in the journal and on screen, queued
        #expect(harness.waitUntil { $0.row(named: "file.zip") != nil })
        let records = try harness.journal.tasks(limit: 10)
        #expect(records.count == 1)
        #expect(records.first?.spec.destinationDirectory == harness.directory.path)
        #expect(records.first?.spec.checksum?.hex == String(repeating: "ab", count: 32))
        #expect(harness.row(named: "file.zip")?.state == .queued)
    }

    @Test func aDownloadIntoAMissingDirectoryReopensTheDialogAndQueuesNothing() throws {
        // Given the add dialog filled with a directory that does not exist
        let harness = try ControllerHarness()
        harness.settle()
        let missing = harness.directory.path + "/nope"
        _ = harness.apply([.key(.character("a"))])
        for character in "http://127.0.0.1:9/x.bin" { _ = harness.apply([.key(.character(character))]) }
        _ = harness.apply([.key(.tab)])
        for _ in 0..<2 { _ = harness.apply([.key(.control("u"))]) }
        for character in missing { _ = harness.apply([.key(.character(character))]) }
        // When it is submitted and the controller carries it out
        let effects = harness.apply([.key(.enter)])
        for case .perform(let command) in effects { harness.send(command) }
        #expect(effects.count == 1)
        // Then the dialog comes back with the problem on the directory field, and nothing is queued
        #expect(harness.waitUntil { if case .form = $0.state.mode { true } else { false } })
        guard case .form(let dialog) = harness.state.mode else { return }
        #expect(dialog.problem == "No such directory: \(missing)")
        #expect(dialog.focus == 1)
        #expect(dialog.fields[0].value == "http://127.0.0.1:9/x.bin")
        #expect(try harness.journal.tasks(limit: 10).isEmpty)
    }

    @Test func uploadsOfUnreadableFilesAndDuplicateDestinationsAreRejected() throws {
        // Given a queue with a download saving to d/same.bin
        let harness = try ControllerHarness { journal, directory in
            _ = try journal.insert(ControllerHarness.download("http://127.0.0.1/same.bin", in: directory.path))
        }
        #expect(harness.waitUntil { $0.state.listCount == 1 })
        // When an upload names a missing file and another download the same destination
        let upload = TUICommand.addUpload(UploadRequest(url: "http://127.0.0.1/up", files: [harness.directory.path + "/missing.txt"]))
        let duplicate = TUICommand.addDownload(DownloadRequest(url: "http://127.0.0.1/other/same.bin", directory: harness.directory.path))
        harness.send(upload)
        harness.send(duplicate)
        // Then both are rejected on the right fields and the queue still has one task
        #expect(harness.waitUntil { $0.events.filter { if case .rejected = $0 { true } else { false } }.count == 2 })
        let rejections = harness.events.compactMap { event -> FieldProblem? in
            if case .rejected(_, let problem) = event { problem } else { nil }
        }
        #expect(rejections.map(\.field) == [1, 2])
        #expect(rejections[0].message.hasPrefix("Cannot read file: "))
        #expect(rejections[1].message.contains("already saves to"))
        #expect(try harness.journal.tasks(limit: 10).count == 1)
    }

    @Test func anUploadOfAReadableFileIsQueuedWithItsFields() throws {
        let harness = try ControllerHarness()
        harness.settle()
        let file = harness.directory.file("photo.jpg").path
        try Data("jpeg".utf8).write(to: URL(fileURLWithPath: file))
        harness.send(.addUpload(UploadRequest(url: "http://127.0.0.1/up", files: [file], fields: [.init(name: "title", value: "cat")])))
        #expect(harness.waitUntil { $0.row(named: "photo.jpg") != nil })
        let record = try #require(try harness.journal.tasks(limit: 10).first)
        #expect(record.spec.upload?.files.map(\.path) == [file])
        #expect(record.spec.upload?.fields == [UploadSpec.Field(name: "title", value: "cat")])
        #expect(harness.row(named: "photo.jpg")?.kind == .upload)
        #expect(record.spec.upload?.resumable == nil)
    }

    @Test func aResumableUploadIsQueuedResumableThroughTheJournal() throws {
        let harness = try ControllerHarness()
        harness.settle()
        let file = harness.directory.file("video.bin").path
        try Data("frames".utf8).write(to: URL(fileURLWithPath: file))
        harness.send(.addUpload(UploadRequest(url: "http://127.0.0.1/up", files: [file], resumable: "ietf")))
        #expect(harness.waitUntil { $0.row(named: "video.bin") != nil })
        let record = try #require(try harness.journal.tasks(limit: 10).first)
        #expect(record.spec.upload?.resumable == "ietf")
    }

    @Test func pauseResumeAndPauseAllChangeTheJournalAndTheRows() throws {
        // Given two queued downloads
        var ids: [TaskID] = []
        let harness = try ControllerHarness { journal, directory in
            ids.append(try journal.insert(ControllerHarness.download("http://127.0.0.1/1.bin", in: directory.path)))
            ids.append(try journal.insert(ControllerHarness.download("http://127.0.0.1/2.bin", in: directory.path)))
        }
        #expect(harness.waitUntil { $0.state.listCount == 2 })
        // When the first is paused
        harness.send(.pause(ids[0].rawValue))
        // Then the journal and the row say paused
        #expect(harness.waitUntil { $0.row(named: "1.bin")?.state == .paused })
        #expect(try harness.journal.task(ids[0])?.state == .paused)
        // When everything is paused, then everything resumed
        harness.send(.pauseAll)
        #expect(harness.waitUntil { $0.loadedRows.allSatisfy { $0.state == .paused } })
        harness.send(.resumeAll)
        #expect(harness.waitUntil { $0.loadedRows.allSatisfy { $0.state == .queued } })
        #expect(try harness.journal.countsByState()[.queued] == 2)
        // When a queued task is "resumed" (not allowed), the refusal is shown
        harness.send(.resume(ids[1].rawValue))
        #expect(harness.waitUntil { $0.state.message?.isError == true })
    }

    @Test func movingATaskDownSwapsItWithItsNeighbour() throws {
        let harness = try ControllerHarness { journal, directory in
            for name in ["a", "b", "c"] {
                _ = try journal.insert(ControllerHarness.download("http://127.0.0.1/\(name)", in: directory.path))
            }
        }
        #expect(harness.waitUntil { $0.state.listCount == 3 })
        let first = try #require(harness.row(named: "a"))
        harness.send(.move(first.id, .down))
        #expect(harness.waitUntil { $0.visibleNames == ["b", "a", "c"] })
        let (a, b) = (try #require(harness.row(named: "a")), try #require(harness.row(named: "b")))
        #expect(b.position < a.position)
        #expect(try harness.journal.tasks(limit: 10).map { TaskRow.name(of: $0) } == ["b", "a", "c"])
    }

    @Test func removingWithTheFileDeletesThePartialFileAndTheRow() throws {
        // Given a download whose partial file exists, and another task
        let harness = try ControllerHarness { journal, directory in
            _ = try journal.insert(ControllerHarness.download("http://127.0.0.1/gone.bin", in: directory.path))
            _ = try journal.insert(ControllerHarness.download("http://127.0.0.1/kept.bin", in: directory.path))
        }
        let part = harness.directory.file("gone.bin.part")
        try Data("partial".utf8).write(to: part)
        #expect(harness.waitUntil { $0.state.listCount == 2 })
        // When it is removed with its file
        let gone = try #require(harness.row(named: "gone.bin"))
        harness.send(.remove(gone.id, deleteFile: true))
        // Then the row, the journal row and the partial file are gone
        #expect(harness.waitUntil { $0.state.listCount == 1 })
        #expect(harness.row(named: "kept.bin") != nil)
        #expect(try harness.journal.task(TaskID(gone.id)) == nil)
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func aTaskAddedByAnotherProcessAppearsWithoutAnyCommand() throws {
        // Given an open front end on an empty queue
        let harness = try ControllerHarness()
        harness.settle()
        // When another journal connection (as `ferry add` in another shell) inserts a task
        let other = try Journal.open(at: harness.journal.path, onCorruption: .fail).journal
        defer { try? other.close() }
        _ = try other.insert(ControllerHarness.download("http://127.0.0.1/elsewhere.iso", in: harness.directory.path))
        // Then the revision poll shows it within a few seconds
        #expect(harness.waitUntil(seconds: 5) { $0.row(named: "elsewhere.iso") != nil })
        #expect(harness.state.stats.count(.queued) == 1)
    }

    @Test func changesAndRemovalsByAnotherProcessAreShownInQueueOrder() throws {
        // Given an open front end on a queue of five tasks
        let harness = try ControllerHarness { journal, directory in
            for name in ["a", "b", "c", "d", "e"] {
                _ = try journal.insert(ControllerHarness.download("http://127.0.0.1/\(name)", in: directory.path))
            }
        }
        #expect(harness.waitUntil { $0.state.listCount == 5 })
        harness.settle()
        let before = harness.events.count
        let ids = Dictionary(uniqueKeysWithValues: harness.loadedRows.map { ($0.name, TaskID($0.id)) })
        // When another process pauses one task, removes another and adds a sixth
        let other = try Journal.open(at: harness.journal.path, onCorruption: .fail).journal
        defer { try? other.close() }
        try other.updateState(try #require(ids["b"]), to: .paused)
        _ = try other.remove([try #require(ids["d"])])
        _ = try other.insert(ControllerHarness.download("http://127.0.0.1/f", in: harness.directory.path))
        // Then the revision poll shows exactly that, in queue order, with the counts
        #expect(harness.waitUntil(seconds: 5) {
            $0.visibleNames == ["a", "b", "c", "e", "f"] && $0.row(named: "b")?.state == .paused
        })
        #expect(harness.state.stats.count(.paused) == 1 && harness.state.stats.count(.queued) == 4)
        // And it took one answer, not one per change
        let answers = harness.events[before...].filter { if case .window = $0 { true } else { false } }
        #expect(answers.count == 1)
    }

    @Test func theControllerLoadsOnlyTheRowsAroundTheScreen() throws {
        // Given a queue of 2,000 tasks
        let harness = try ControllerHarness { journal, directory in
            _ = try journal.insert((0..<2_000).map { try ControllerHarness.download("http://127.0.0.1/f\($0)", in: directory.path) })
        }
        let screen = harness.state.layout.tableRows
        #expect(harness.waitUntil { $0.state.listCount == 2_000 && $0.loadedRows.count == 3 * screen })
        // Then the front end and the controller hold three screens of rows, not the queue
        #expect(harness.controller.state.withLock { $0.shown.count } == 3 * screen)
        #expect(harness.visibleNames.prefix(2) == ["f0", "f1"])
        // When the user jumps to the end
        _ = harness.apply([.key(.character("G"))])
        // Then the rows around the end are loaded and the last task is selected
        #expect(harness.waitUntil { $0.state.selectedTask?.name == "f1999" })
        #expect(harness.state.scrollTop == 2_000 - screen)
        #expect(harness.state.window.map { $0.range.contains(1_999) && $0.rows.count <= 3 * screen } == true)
        #expect(harness.controller.state.withLock { $0.shown.count } <= 3 * screen)
    }

    @Test func filterAndNameOrderAreAnsweredFromTheJournal() throws {
        // Given downloads and an upload with names in mixed case
        let harness = try ControllerHarness { journal, directory in
            for name in ["Zeta.iso", "alpha.bin", "ALPHABET.txt", "beta.zip"] {
                _ = try journal.insert(ControllerHarness.download("http://127.0.0.1/\(name)", in: directory.path))
            }
        }
        #expect(harness.waitUntil { $0.state.listCount == 4 })
        // When the user filters on "alph"
        _ = harness.apply("/alph".map { .key(.character($0)) })
        // Then only the matching tasks are listed
        #expect(harness.waitUntil { $0.visibleNames == ["alpha.bin", "ALPHABET.txt"] })
        // When the filter is cleared and the order is by name
        _ = harness.apply([.key(.escape), .key(.character("s"))])
        #expect(harness.waitUntil { $0.visibleNames == ["alpha.bin", "ALPHABET.txt", "beta.zip", "Zeta.iso"] })
        #expect(harness.state.sortOrder == .name)
    }

    @Test func aTaskHandedToTheEngineAheadOfNeedShowsQueuedUntilItsTransferStarts() throws {
        // Given two tasks the scheduler marked running, and an engine that started only one
        let activity = FakeActivity()
        var ids: [TaskID] = []
        // (the engine started the first before the front end attached: the event waits)
        let harness = try ControllerHarness(activity: activity, seed: { journal, directory in
            for name in ["first.bin", "waiting.bin"] {
                let id = try journal.insert(ControllerHarness.download("http://127.0.0.1/\(name)", in: directory.path))
                try journal.updateState(id, to: .running)
                ids.append(id)
            }
        }, beforeAttach: { activity.emit(.started(ids[0])) })
        // Then only the started one shows running; the other waits as queued
        #expect(harness.waitUntil { $0.row(named: "first.bin")?.state == .running })
        harness.settle()
        #expect(harness.row(named: "waiting.bin")?.state == .queued)
        #expect(harness.state.stats.count(.running) == 1)
        // When the engine starts the second, it shows running too
        activity.emit(.started(ids[1]))
        #expect(harness.waitUntil { $0.row(named: "waiting.bin")?.state == .running })
        #expect(harness.state.stats.count(.running) == 2)
        // When the engine ends the first, it counts as done and no longer as running
        try harness.journal.updateState(ids[0], to: .done)
        activity.emit(.ended(ids[0], .done, error: nil))
        #expect(harness.waitUntil { $0.row(named: "first.bin")?.state == .done })
        #expect(harness.waitUntil { $0.state.stats.count(.running) == 1 && $0.state.stats.count(.done) == 1 })
    }

    @Test func whatADownloadDidAboutOneOfItsSourcesIsSaidOnTheMessageLine() throws {
        // Given a running download from several sources
        let activity = FakeActivity()
        var id = TaskID(0)
        let harness = try ControllerHarness(activity: activity) { journal, directory in
            id = try journal.insert(ControllerHarness.download("http://127.0.0.1/mirrored.iso", in: directory.path))
            try journal.updateState(id, to: .running)
        }
        activity.emit(.started(id))
        #expect(harness.waitUntil { $0.row(named: "mirrored.iso")?.state == .running })
        // When the engine says it dropped a source
        activity.emit(.note(id, "http://127.0.0.1/a answered 404; trying the next mirror"))
        // Then the message line says so, for that task, as a note (not an error)
        #expect(harness.waitUntil { $0.state.message?.text == "#\(id.rawValue): http://127.0.0.1/a answered 404; trying the next mirror" })
        #expect(harness.state.message?.isError == false)
    }

    @Test func engineEventsShowLiveProgressAndCommandsGoToTheEngine() throws {
        // Given a running task and an engine
        let activity = FakeActivity()
        var id = TaskID(0)
        let harness = try ControllerHarness(activity: activity) { journal, directory in
            id = try journal.insert(ControllerHarness.download("http://127.0.0.1/live.bin", in: directory.path))
            try journal.updateState(id, to: .running)
        }
        activity.emit(.started(id))
        #expect(harness.waitUntil { $0.row(named: "live.bin")?.state == .running })
        // When the engine reports progress
        activity.emit(.progress(id, TransferProgress(receivedBytes: 300, expectedReceivedBytes: 1200, bytesPerSecond: 100)))
        // Then the row shows it, with speed and time left
        #expect(harness.waitUntil { $0.row(named: "live.bin")?.bytesDone == 300 })
        let row = try #require(harness.row(named: "live.bin"))
        #expect(row.bytesTotal == 1200 && row.speed == 100 && row.eta == 9)
        #expect(harness.state.stats.downloadSpeed == 100)
        // When the user pauses it and adds a task, the engine is asked (the front end writes
        // no row: the engine adds it)
        harness.send(.pause(id.rawValue))
        harness.send(.addDownload(DownloadRequest(url: "http://127.0.0.1/next.bin", directory: harness.directory.path)))
        #expect(harness.waitUntil { $0.row(named: "next.bin") != nil })
        // (the revision poll may tell the engine that the journal changed)
        #expect(activity.commands.prefix(2) == ["pause \(id)", "add http://127.0.0.1/next.bin"])
        #expect(try harness.journal.task(id)?.state == .running)
        // When the engine ends the task, the row shows the journal's final state
        try harness.journal.updateState(id, to: .failed)
        activity.emit(.ended(id, .failed, error: "HTTP 500"))
        #expect(harness.waitUntil { $0.row(named: "live.bin")?.state == .failed })
        #expect(harness.row(named: "live.bin")?.speed == 0)
    }

    @Test func theHeaderSpeedFollowsEveryProgressAndLeavesWithARemovedTask() throws {
        // Given two running transfers
        let activity = FakeActivity()
        var ids: [TaskID] = []
        let harness = try ControllerHarness(activity: activity) { journal, directory in
            for name in ["one.bin", "two.bin"] {
                let id = try journal.insert(ControllerHarness.download("http://127.0.0.1/\(name)", in: directory.path))
                try journal.updateState(id, to: .running)
                ids.append(id)
            }
        }
        for id in ids { activity.emit(.started(id)) }
        #expect(harness.waitUntil { $0.state.stats.count(.running) == 2 })
        // When they report 100 and 50 bytes per second, then the first 30
        activity.emit(.progress(ids[0], TransferProgress(receivedBytes: 10, expectedReceivedBytes: 1000, bytesPerSecond: 100)))
        activity.emit(.progress(ids[1], TransferProgress(receivedBytes: 10, expectedReceivedBytes: 1000, bytesPerSecond: 50)))
        #expect(harness.waitUntil { $0.state.stats.downloadSpeed == 150 })
        activity.emit(.progress(ids[0], TransferProgress(receivedBytes: 20, expectedReceivedBytes: 1000, bytesPerSecond: 30)))
        // Then the header's speed is their sum each time
        #expect(harness.waitUntil { $0.state.stats.downloadSpeed == 80 })
        // When the second is removed while it runs and its transfer ends
        _ = try harness.journal.remove([ids[1]])
        activity.emit(.ended(ids[1], .cancelled, error: nil))
        // Then its speed leaves the header with its row
        #expect(harness.waitUntil { $0.state.listCount == 1 && $0.state.stats.downloadSpeed == 30 })
        #expect(harness.visibleNames == ["one.bin"])
    }
}
