import FerryKit
import FerryQueue
import Foundation

extension GetCommand {
    /// `listedTasks(from:...)` reads `-i FILE` (aria2's input-file format, as `ferry add -i`
    /// reads it; `-` for standard input) into the downloads of this run: this command's
    /// options apply to the entries that do not set their own. A bad line is reported with
    /// its number and only its entry is skipped; `skipped` counts them (status 2 at the end).
    func listedTasks(from path: String, directory: URL, headers: HTTPHeaders, rate: Int64?, checksum: ExpectedChecksum?,
                     connection: ConnectionSettings) throws -> (tasks: [NewTask], skipped: Int) {
        var defaults: BatchDefaults
        do {
            let fields = try headers.map { field throws(QueueError) in try HeaderField(name: field.name, value: field.value) }
            let digest = try checksum.map { value throws(QueueError) in try Checksum(parsing: value.description) }
            defaults = BatchDefaults(directory: directory.path, headers: fields, checksum: digest, maxDownloadLimit: rate,
                                     retries: options.retries, overwrite: options.overwrite,
                                     useContentDisposition: options.contentDisposition)
        } catch {
            Console.error(error.description)
            throw ExitStatus.usage
        }
        defaults.connections = options.connections
        defaults.minSplitSize = (try? options.parsedSegmentation())?.minSplitSize
        defaults.connection = connection
        defaults.metalinkLocations = MetalinkTasks.locations(options.metalinkLocation)
        defaults.metalinkProtocol = MetalinkTasks.preferredProtocol(options.metalinkPreferredProtocol)
        var entries = try ListedEntries(path: path, defaults: defaults, commandIsInsecure: connection.insecure)
        let shownPath = entries.shownPath
        var tasks: [NewTask] = []
        var pausedLines: [Int] = []
        do {
            while case (let line, var task)? = try entries.next() {
                if task.startsPaused { pausedLines.append(line) }
                task.startsPaused = false
                tasks.append(task)
            }
        } catch {
            Console.error("\(shownPath): \(error.description)")
            throw ExitStatus.usage
        }
        entries.warnInsecure()
        let skipped = entries.skipped
        if !pausedLines.isEmpty {
            Console.error("\(shownPath): pause=true is for ferry add; ferry get downloads those entries now (line \(pausedLines.prefix(5).map(String.init).joined(separator: ", "))\(pausedLines.count > 5 ? ", ..." : ""))")
        }
        return (tasks, skipped)
    }
}

extension GetPlan {
    /// `addListed(_:request:store:finished:unfinished:used:)` plans the entries of `-i FILE` as
    /// `make` plans URLs: an entry an earlier run of the same command saved is not fetched
    /// again, an unfinished one continues, any other is recorded anew.
    mutating func addListed(_ tasks: [NewTask], request: GetRequest, store: QueuedDownloads, finished: [TaskRecord],
                            unfinished: [TaskRecord], used: inout Set<TaskID>) async throws {
        for task in tasks {
            let spec = task.spec
            guard let first = spec.urls.first, let url = URL(string: first.string) else { continue }
            let directory = URL(fileURLWithPath: spec.destinationDirectory ?? request.directory.path, isDirectory: true)
            let name = spec.requestedName
            let urls = spec.urls.map(\.string)
            func same(_ record: TaskRecord) -> Bool {
                !used.contains(record.id) && DownloadJournal.matches(record, urls: urls, directory: directory, name: name)
            }
            if let record = finished.first(where: same),
               let path = SavedFileCheck.path(of: record, checksum: spec.checksum) {
                used.insert(record.id)
                alreadySaved.append(path)
                continue
            }
            // A finished download whose file changed is fetched again; its old row goes.
            let changed = finished.first(where: same)
            var shownName = name ?? SafeFileName.fromURL(url)
            let entry: DownloadJournal.Entry
            if let record = unfinished.first(where: same) {
                if let fileName = record.fileName { shownName = fileName }
                // Settings first, then queued again (a daemon may start it at once).
                try await store.adopt(spec.connection, of: record)
                try await store.adopt(spec.checksum, of: record)
                entry = try await store.requeue(record, speedCap: spec.options.maxDownloadLimit)
            } else {
                entry = try await store.insert(task)
            }
            if let changed {
                used.insert(changed.id)
                try await store.forget(changed)
            }
            used.insert(entry.id)
            jobs[entry.id] = Reporter.Job(index: jobs.count, label: URLMasking.mask(url), name: shownName, resumesAt: entry.resumesAt)
        }
    }
}
