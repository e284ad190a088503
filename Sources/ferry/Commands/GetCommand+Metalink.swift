import FerryKit
import FerryQueue
import Foundation

extension GetCommand {
    /// `isMetalinkPath(_:)` is whether a positional argument names a local Metalink
    /// (`FILE.meta4`, `FILE.metalink`) rather than a URL.
    static func isMetalinkPath(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return !lower.contains("://") && (lower.hasSuffix(".meta4") || lower.hasSuffix(".metalink"))
    }

    /// `metalinkTasks(from:directory:headers:rate:connection:)` reads each Metalink and makes
    /// one download per file: its sources best first (``MetalinkChoice``: the preferred
    /// locations and protocol first, then the document's priorities), saved under its name in
    /// the download directory (its folders made), checked against the strongest whole-file
    /// hash Ferry knows. A Metalink that cannot be read or is hostile is a usage error naming it.
    func metalinkTasks(from paths: [String], directory: URL, headers: HTTPHeaders, rate: Int64?,
                       connection: ConnectionSettings) throws -> [NewTask] {
        let choice = MetalinkChoice(locations: options.metalinkLocation, preferredProtocol: options.metalinkPreferredProtocol)
        var tasks: [NewTask] = []
        for path in paths {
            do throws(FerryError) {
                guard let data = FileManager.default.contents(atPath: path) else { throw .input(.missingFile(path)) }
                let metalink = try Metalink.parse(data)
                for file in metalink.files {
                    tasks.append(try choice.task(for: file, directory: directory, headers: headers, rate: rate,
                                                 retries: options.retries, connection: connection))
                }
            } catch {
                Console.error("\(path): \(error.description)")
                throw ExitStatus.usage
            }
        }
        return tasks
    }
}

/// `MetalinkChoice` orders a Metalink file's sources as aria2's `--metalink-location` and
/// `--metalink-preferred-protocol` do, and makes its download task.
struct MetalinkChoice {
    /// `locations` are the preferred country codes, lowercased.
    let locations: [String]
    /// `preferredProtocol` is `http` or `https`, `nil` for none.
    let preferredProtocol: String?

    init(locations: String?, preferredProtocol: String?) {
        self.locations = (locations ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        let wanted = preferredProtocol?.lowercased()
        self.preferredProtocol = wanted == "none" ? nil : wanted
    }

    /// `task(for:directory:headers:rate:retries:connection:)` is the download of one file.
    func task(for file: Metalink.File, directory: URL, headers: HTTPHeaders, rate: Int64?, retries: Int,
              connection: ConnectionSettings) throws(FerryError) -> NewTask {
        var urls: [TransferURL] = []
        for source in file.sources(preferring: locations, protocol: preferredProtocol) {
            if let url = try? TransferURL(validating: source.url) { urls.append(url) }
        }
        guard !urls.isEmpty else { throw .serialization(.invalidMetalink("\(file.name): no source Ferry can use")) }
        var folder = directory
        for part in file.folders { folder = folder.appendingPathComponent(part, isDirectory: true) }
        if !file.folders.isEmpty {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .file(.io(path: folder.path, errno: EACCES, operation: "make the Metalink's folder"))
            }
        }
        let checksum = file.strongestHash.flatMap { try? Checksum(parsing: "\($0.algorithm)=\($0.hex)") }
        let fields = headers.compactMap { try? HeaderField(name: $0.name, value: $0.value) }
        let spec = TaskSpec(urls: urls, headers: fields, destinationDirectory: folder.path, requestedName: file.fileName,
                            checksum: checksum, options: TaskOptions(maxDownloadLimit: rate, retries: retries), connection: connection)
        return NewTask(spec: spec, pieceHashes: file.pieceHashes)
    }
}
