import FerryKit
import FerryQueue
import Foundation

extension GetCommand {
    /// `isMetalinkPath(_:)` is whether a positional argument names a local Metalink
    /// (`FILE.meta4`, `FILE.metalink`) rather than a URL.
    static func isMetalinkPath(_ argument: String) -> Bool {
        BatchInputReader.isMetalinkPath(argument)
    }

    /// `metalinkTasks(from:directory:headers:rate:connection:)` reads each Metalink and makes
    /// one download per file (`MetalinkTasks`: its sources best first, the preferred locations
    /// and protocol first, then the document's priorities), saved under its name in the
    /// download directory (its folders made), checked against the strongest whole-file hash
    /// Ferry knows. A Metalink that cannot be read or is hostile is a usage error naming it.
    func metalinkTasks(from paths: [String], directory: URL, headers: HTTPHeaders, rate: Int64?,
                       connection: ConnectionSettings) throws -> [NewTask] {
        let fields = headers.compactMap { try? HeaderField(name: $0.name, value: $0.value) }
        let template = NewTask(spec: TaskSpec(urls: [], headers: fields, destinationDirectory: directory.path,
                                              options: TaskOptions(maxDownloadLimit: rate, retries: options.retries), connection: connection))
        var tasks: [NewTask] = []
        for path in paths {
            do throws(FerryError) {
                guard let data = FileManager.default.contents(atPath: path) else { throw .input(.missingFile(path)) }
                let made = try MetalinkTasks.tasks(from: Metalink.parse(data), template: template,
                                                   locations: MetalinkTasks.locations(options.metalinkLocation),
                                                   preferredProtocol: MetalinkTasks.preferredProtocol(options.metalinkPreferredProtocol))
                for task in made { try Self.makeFolder(of: task, under: directory) }
                tasks += made
            } catch {
                Console.error("\(path): \(error.description)")
                throw ExitStatus.usage
            }
        }
        return tasks
    }

    /// `makeFolder(of:under:)` makes the folders a Metalink's file is saved in.
    static func makeFolder(of task: NewTask, under directory: URL) throws(FerryError) {
        guard let folder = task.spec.destinationDirectory, folder != directory.path else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .file(.io(path: folder, errno: EACCES, operation: "make the Metalink's folder"))
        }
    }
}
