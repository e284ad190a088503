import Foundation
import Testing
@testable import FerryQueue

@Suite struct JournalChangesTests {
    @Test func summariesCarryWhatAListNeedsAndLabelsWhatNamesAreMadeOf() throws {
        // Given a download with two mirrors, a name and progress; a resolved paused download;
        // a form upload with two files; a raw upload
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let mirrors = NewTask(spec: TaskSpec(
            urls: [try TransferURL(validating: "https://a.example/x.iso"), try TransferURL(validating: "https://b.example/x.iso")],
            destinationDirectory: "/dl", requestedName: "named.iso"), priority: 3)
        let upload = UploadSpec(files: [.init(fieldName: "photo", path: "/tmp/a.jpg", filename: "sent.jpg"),
                                        .init(fieldName: "doc", path: "/tmp/b.txt")])
        let ids = try journal.insert([
            mirrors,
            try download("https://example.com/plain"),
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://up.example/form")], upload: upload)),
            NewTask(spec: TaskSpec(urls: [try TransferURL(validating: "https://up.example/raw")], upload: UploadSpec(bodyFile: "/tmp/body.bin"))),
        ])
        try journal.recordCheckpoint(ids[0], ResumeRecord(totalLength: 1000, durableOffset: 250))
        // (it started writing named.1.iso: named.iso was taken)
        #expect(try journal.markRunning([ids[0]], fileNames: ["named.1.iso"]) == [ids[0]])
        try journal.recordFinalPath(ids[1], "/dl/plain.1")
        try journal.updateState(ids[1], to: .paused)

        // When the summaries are read, without and with labels
        var plain: [TaskSummary] = []
        var labelled: [TaskSummary] = []
        try journal.forEachSummary(labels: false) { plain.append($0) }
        try journal.forEachSummary(labels: true) { labelled.append($0) }

        // Then each matches its task, in id order; labels come only when asked, as the task's own
        let records = try journal.tasks(ids: ids)
        #expect(plain.map(\.id) == ids && labelled.map(\.id) == ids)
        #expect(plain.allSatisfy { $0.label == nil })
        for (summary, record) in zip(labelled, records) {
            #expect(summary.kind == record.kind && summary.state == record.state)
            #expect(summary.priority == record.priority && summary.position == record.position)
            #expect(summary.totalLength == record.resume.totalLength && summary.durableOffset == record.resume.durableOffset)
            #expect(summary.label == TaskLabel(record))
        }
        #expect(labelled[0].priority == 3 && labelled[0].totalLength == 1000 && labelled[0].durableOffset == 250)
        #expect(labelled[0].label?.firstURL?.string == "https://a.example/x.iso")
        #expect(labelled[0].label?.requestedName == "named.iso" && labelled[0].label?.destinationDirectory == "/dl")
        // A view shows the name a download writes before the one asked for, the resolved file's first.
        #expect(labelled[0].label?.fileName == "named.1.iso" && labelled[0].label?.savedName == "named.1.iso")
        #expect(labelled[1].label?.savedName == "plain.1")
        #expect(labelled[1].state == .paused && labelled[1].label?.finalPath == "/dl/plain.1")
        #expect(labelled[2].label?.uploadPaths == ["/tmp/a.jpg", "/tmp/b.txt"])
        #expect(labelled[2].label?.uploadNames == ["sent.jpg", "/tmp/b.txt"])
        #expect(labelled[3].label?.uploadBodyFile == "/tmp/body.bin" && labelled[3].kind == .upload)
    }

    @Test func readsByIdReturnTheTasksThatExistInIdOrder() throws {
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let ids = try journal.insert([try download("https://example.com/a"), try download("https://example.com/b"),
                                      try download("https://example.com/c")])
        #expect(try journal.remove([ids[2]]) == 1)
        #expect(try journal.tasks(ids: [ids[2], ids[1], ids[0]]).map(\.id) == [ids[0], ids[1]])
        #expect(try journal.tasks(ids: []).isEmpty)
    }

    @Test func readsByIdSpanSeveralChunksOfIds() throws {
        // Given more tasks than one `IN (...)` list takes, one of them paused and one removed
        let temp = try TemporaryDirectory()
        let journal = try openJournal(in: temp)
        let count = 2 * TaskLoader.chunkSize + 7
        let ids = try journal.insert((0..<count).map { _ in try download("https://example.com/f") })
        try journal.updateState(ids[TaskLoader.chunkSize], to: .paused)
        #expect(try journal.remove([ids[count - 1]]) == 1)
        // When they are read by id, in reverse order
        let records = try journal.tasks(ids: ids.reversed())
        let states = try journal.states(of: ids)
        // Then every existing task comes back once, in id order, with its state
        #expect(records.map(\.id) == Array(ids.dropLast()))
        #expect(states.count == count - 1)
        #expect(states[ids[TaskLoader.chunkSize]] == .paused)
        #expect(states[ids[0]] == .queued && states[ids[count - 2]] == .queued)
        #expect(states[ids[count - 1]] == nil)
    }
}
