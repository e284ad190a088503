import FerryKit
import Foundation
import Glibc

/// `TaskFiles` finds and deletes the files a task wrote (`ferry remove --delete-file`).
public enum TaskFiles {
    /// `paths(of:defaultDirectory:)` are the task's finished file (when recorded) and the
    /// `.part` file its next attempt would write (of the name it was given when it first
    /// started, when recorded); empty for an upload.
    public static func paths(of record: TaskRecord, defaultDirectory: String) -> [String] {
        guard record.spec.upload == nil else { return [] }
        var paths: [String] = []
        if let finalPath = record.finalPath {
            paths.append(finalPath)
        }
        let directory = URL(fileURLWithPath: record.spec.destinationDirectory ?? defaultDirectory, isDirectory: true)
        do {
            var names = (record.fileName ?? record.spec.requestedName).map { [$0] } ?? []
            if names.isEmpty, let first = record.spec.urls.first, let parsed = try? Request.validatedURL(first.string) {
                names.append(SafeFileName.fromURL(parsed))
            }
            for name in Set(names) {
                paths.append(directory.appendingPathComponent(name + ".part").path)
            }
        }
        return paths
    }

    /// `delete(of:defaultDirectory:)` deletes the files `paths(of:defaultDirectory:)` names
    /// that exist, and returns the ones it deleted.
    @discardableResult
    public static func delete(of record: TaskRecord, defaultDirectory: String) -> [String] {
        paths(of: record, defaultDirectory: defaultDirectory).filter { unlink($0) == 0 }
    }
}
