@testable import FerryQueue
import Foundation
import FuzzSupport

/// A small real journal with bytes overwritten, pages cut off or the file truncated: opening
/// it and listing its tasks never crashes or hangs. An unreadable journal may be set aside;
/// the journal then open holds only tasks it can list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var file = template.bytes
    let pageSize = 4096
    let pages = max(1, file.count / pageSize)
    for _ in 0..<16 where !input.isEmpty {
        let operation = input.byte() % 4
        let offset = Int(input.byte()) % pages * pageSize + input.number(below: pageSize)
        guard offset < file.count else { continue }
        switch operation {
        case 0: // a few bytes overwritten
            for (index, byte) in input.bytes(upTo: 16).enumerated() where offset + index < file.count {
                file[offset + index] = byte
            }
        case 1: // one byte changed by a bit
            file[offset] ^= 1 << (input.byte() % 8)
        case 2: // a 1-4 KiB run overwritten with one value
            let length = 1024 * (1 + Int(input.byte() % 4))
            let value = input.byte()
            for index in offset..<min(file.count, offset + length) { file[index] = value }
        default: // cut off
            file.removeSubrange(offset...)
        }
    }

    let directory = template.scratch
    let path = directory + "/journal.sqlite"
    clear(directory)
    invariant(FileManager.default.createFile(atPath: path, contents: Data(file)), "cannot write \(path)")
    defer { clear(directory) }

    let opening: JournalOpening
    do {
        opening = try Journal.open(at: path, now: { Date(timeIntervalSince1970: 1_700_000_000) })
    } catch {
        return 0 // a journal of a newer schema, or one that cannot be set aside: refused, not crashed
    }
    let journal = opening.journal
    defer { try? journal.close() }
    guard let tasks = try? journal.tasks(limit: 1000) else { return 0 }
    if opening.recovery != nil {
        invariant(tasks.count <= template.taskCount, "\(tasks.count) tasks after a recovery from \(template.taskCount)")
    }
    for task in tasks {
        _ = try? journal.task(task.id)
        _ = try? journal.segments(of: task.id)
        _ = try? journal.finalPath(of: task.id)
    }
    _ = try? journal.countsByState()
    _ = try? journal.nextRunnable(limit: 100)
    _ = try? journal.recentlyDone(limit: 100)
    try? journal.forEachSummary(labels: true) { _ in }
    try? journal.forEachTask { _ in }
    return 0
}

/// `clear(_:)` removes every file in `directory` (the journal, its companions, set-aside copies).
private func clear(_ directory: String) {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
    }
}

/// `Template` is the real journal every input mutates, made once per process with the
/// journal's own API: tasks in several states, with headers, checksums, names, segments,
/// an upload and a finished one.
private final class Template: Sendable {
    let bytes: [UInt8]
    let taskCount: Int
    let scratch: String

    init() {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-fuzz-journal-\(getpid())").path
        scratch = root + "/run"
        let source = root + "/template"
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
            let path = source + "/journal.sqlite"
            let journal = try Journal.open(at: path).journal
            let url = try TransferURL(validating: "https://example.com/files/report.pdf?token=secret")
            let mirror = try TransferURL(validating: "http://mirror.example.org:8080/report.pdf")
            let tasks = [
                NewTask(spec: TaskSpec(urls: [url, mirror])),
                NewTask(spec: TaskSpec(
                    urls: [url], headers: [try HeaderField(name: "Authorization", value: "Bearer x")],
                    destinationDirectory: "/srv/downloads", requestedName: "named.bin", overwrite: true,
                    checksum: try Checksum(parsing: "sha-256=" + String(repeating: "ab", count: 32)),
                    useContentDisposition: true, options: TaskOptions(maxDownloadLimit: 1_000_000, retries: 3)),
                    priority: 5),
                NewTask(spec: TaskSpec(urls: [mirror]), startsPaused: true),
                NewTask(spec: TaskSpec(urls: [url], upload: UploadSpec(
                    fields: [.init(name: "a", value: "b")], files: [.init(fieldName: "f", path: "/tmp/x", filename: "y", mimeType: "text/plain")]))),
                NewTask(spec: TaskSpec(urls: [url]), priority: -1),
                NewTask(spec: TaskSpec(urls: [mirror], requestedName: "done.bin")),
            ]
            let ids = try journal.insert(tasks)
            _ = try journal.markRunning([ids[0], ids[5]])
            try journal.replaceSegments(ids[0], with: [Segment(start: 0, end: 999, durableOffset: 100), Segment(start: 1000, end: nil)])
            try journal.recordAttempt(ids[0], error: "connection reset")
            _ = try journal.recordOutcome(ids[5], state: .done, finalPath: "/srv/downloads/done.bin", error: nil)
            // Everything into the main file, so that the mutations reach the tasks.
            _ = try journal.pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try journal.close()
            invariant(!FileManager.default.fileExists(atPath: path + "-wal")
                      || ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0) == 0,
                      "the template journal left a WAL")
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            taskCount = tasks.count
        } catch {
            invariant(false, "cannot make the template journal: \(error)")
            bytes = []
            taskCount = 0
        }
    }
}

private let template = Template()

@main
enum Main {
    static func main() {
        runFuzzer(fuzzJournal)
    }
}
