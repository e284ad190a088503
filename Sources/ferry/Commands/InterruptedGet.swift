import FerryQueue
import Foundation

/// `InterruptedGet` is what an interrupted `ferry get` says it leaves behind, read from the
/// journal once its tasks are paused: partial files to resume, downloads not begun, or nothing
/// (every download had ended). Running the same command again does the rest in every case.
enum InterruptedGet {
    /// `message(journal:ids:settling:)` reads the tasks `ids`. A daemon pauses them after its
    /// answer: while one is still `running`, the journal is read again, for at most `settling`.
    /// Bytes count when the journal records some or the task's `.part` holds some.
    static func message(journal: Journal, ids: [TaskID], settling: Duration = .zero) async -> String {
        let deadline = ContinuousClock.now + settling
        var records = read(journal, ids)
        while records.contains(where: { $0?.state == .running }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            records = read(journal, ids)
        }
        var unfinished = 0
        var withBytes = 0
        for (id, record) in zip(ids, records) {
            // A task that cannot be read (or was removed meanwhile) counts as unfinished: the
            // advice stays right.
            guard let record else {
                unfinished += 1
                continue
            }
            guard record.state == .paused || record.state == .queued || record.state == .running else { continue }
            unfinished += 1
            if record.resume.durableOffset > 0 || hasSegmentBytes(journal, id) || hasPartialFile(record) {
                withBytes += 1
            }
        }
        if withBytes > 0 {
            return "interrupted; partial files were kept: run the same command again to resume"
        }
        if unfinished > 0 {
            return "interrupted; run the same command again to download the rest"
        }
        return "interrupted; every download had already ended"
    }

    private static func read(_ journal: Journal, _ ids: [TaskID]) -> [TaskRecord?] {
        ids.map { try? journal.task($0) }
    }

    /// `hasPartialFile(_:)` is true when the task's `.part` (`TaskFiles`) holds bytes: the
    /// journal records them as the transfer stops, which a daemon may do after the task reads
    /// `paused`.
    private static func hasPartialFile(_ record: TaskRecord) -> Bool {
        TaskFiles.paths(of: record, defaultDirectory: FileManager.default.currentDirectoryPath)
            .filter { $0.hasSuffix(".part") }
            .contains { path in
                var status = stat()
                return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size > 0
            }
    }

    /// `hasSegmentBytes(_:_:)` is true when a download split in ranges has bytes in one.
    private static func hasSegmentBytes(_ journal: Journal, _ id: TaskID) -> Bool {
        let segments = (try? journal.segments(of: id)) ?? []
        return segments.contains { $0.durableOffset > $0.start }
    }
}
