import ArgumentParser
import FerryQueue
import Foundation

/// `RemoveCommand` is `ferry remove ID...|--all [--delete-file]`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove tasks from the queue; a running engine stops them within a second.",
        discussion: "Files are kept unless --delete-file is given: then the finished file (if the task was done) and the partial NAME.part file are deleted too.")

    @OptionGroup var selection: TaskSelection

    @Flag(name: .customLong("delete-file"), help: "Also delete the task's finished or partial file.")
    var deleteFile = false

    @OptionGroup var state: StateOptions

    func run() async throws {
        let ids = try selection.parsed()
        let journal = try QueueAccess.openJournal(state)
        defer { try? journal.close() }
        let cwd = FileManager.default.currentDirectoryPath
        do {
            var records: [TaskRecord] = []
            if deleteFile {
                if selection.all {
                    try journal.forEachTask { records.append($0) }
                } else {
                    for id in ids { if let record = try journal.task(id) { records.append(record) } }
                }
            }
            let removed = selection.all ? try journal.removeAll() : try journal.remove(ids)
            var deleted = 0
            for record in records {
                deleted += TaskFiles.delete(of: record, defaultDirectory: cwd).count
            }
            Console.error("removed \(removed) task\(removed == 1 ? "" : "s")\(deleteFile ? "; deleted \(deleted) file\(deleted == 1 ? "" : "s")" : "")")
            if !selection.all && removed < Set(ids).count {
                Console.error("\(Set(ids).count - removed) of the ids did not exist")
                throw ExitStatus.usage
            }
        } catch let error as QueueError {
            throw QueueAccess.fail(error)
        }
    }
}
