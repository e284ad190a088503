import FerryKit
import Foundation

/// `MetalinkTasks` makes the downloads of a Metalink's files, as `ferry get FILE.meta4`, a
/// Metalink in a batch file and RPC `aria2.addMetalink` all take them.
public enum MetalinkTasks {
    /// `tasks(from:template:locations:preferredProtocol:)` is one download per file of
    /// `metalink`: `template` (the options given) with the file's sources best first (those in
    /// `locations`, country codes, lowercased, then those of `preferredProtocol`, `http` or
    /// `https`, each group in the document's priority order: aria2's `--metalink-location` and
    /// `--metalink-preferred-protocol`), its folders under the template's directory (the current
    /// one without), its name, the template's checksum or else the file's strongest hash, and
    /// its piece hashes. A file without a source Ferry can use is an error naming it.
    public static func tasks(from metalink: Metalink, template: NewTask, locations: [String],
                             preferredProtocol: String?) throws(FerryError) -> [NewTask] {
        var tasks: [NewTask] = []
        for file in metalink.files {
            let urls = file.sources(preferring: locations, protocol: preferredProtocol).compactMap { try? TransferURL(validating: $0.url) }
            guard !urls.isEmpty else { throw .serialization(.invalidMetalink("\(file.name): no source Ferry can use")) }
            var task = template
            task.spec.urls = urls
            if !file.folders.isEmpty {
                let base = URL(fileURLWithPath: task.spec.destinationDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
                task.spec.destinationDirectory = file.folders.reduce(base) { $0.appendingPathComponent($1, isDirectory: true) }.path
            }
            task.spec.requestedName = file.fileName
            if task.spec.checksum == nil, let hash = file.strongestHash {
                task.spec.checksum = try? Checksum(parsing: "\(hash.algorithm)=\(hash.hex)")
            }
            task.pieceHashes = file.pieceHashes
            tasks.append(task)
        }
        return tasks
    }

    /// `locations(_:)` reads aria2's `metalink-location` list ("de,fr"): lowercased codes.
    public static func locations(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// `preferredProtocol(_:)` reads aria2's `metalink-preferred-protocol`: `none` is none.
    public static func preferredProtocol(_ text: String?) -> String? {
        let wanted = text?.lowercased()
        return wanted == "none" ? nil : wanted
    }
}
