import FerryKit
import Foundation
import Glibc

extension Scheduler {
    /// `claimFileNames(_:)` gives each chosen download without a file name the name it will
    /// write (`TaskRecord.fileName`), recorded by the same commit that marks it running
    /// (`fileNames(of:)`), so that it writes the same `.part` after any restart: several
    /// tasks asking for one name (`same.bin`, `same.1.bin`, ...) no longer trade names when
    /// they start in another order, leaving `.part` files behind and fetching from zero.
    ///
    /// The name is the first of the requested one, `name.1.ext`, `name.2.ext`, ... that no
    /// running or chosen download writes and, for a task that never ran, whose `.part` does
    /// not exist (another task's or process's, never to be adopted) and, unless it may
    /// overwrite, whose final name is free too (so the file keeps the name its `.part` had).
    /// A task that ran before without a recorded name (an older journal) keeps the old rule,
    /// which finds its `.part`: the first name no running download writes.
    func claimFileNames(_ chosen: [Candidate]) -> [Candidate] {
        var claimed: Set<String> = []
        var unnamed = false
        for (record, _, _) in chosen where record.spec.upload == nil {
            guard let fileName = record.fileName else {
                unnamed = true
                continue
            }
            let directory = directoryPrototype(record.spec.destinationDirectory ?? configuration.defaultDirectory)
            claimed.insert(directory.filePath(named: fileName + ".part"))
        }
        guard unnamed else { return chosen }
        var named = chosen
        for index in named.indices where named[index].0.spec.upload == nil && named[index].0.fileName == nil {
            let url = named[index].1
            guard let parsed = try? Scheduler.parse(url),
                  let (destination, checkedFree) = try? freshDestination(for: named[index].0, url: url, parsed: parsed, avoiding: claimed) else {
                continue
            }
            claimed.insert(destination.partialFilePath)
            named[index].0.fileName = destination.fileName
            claims[named[index].0.id] = Claim(parsed: parsed, partIsFree: checkedFree)
        }
        return named
    }

    /// `fileNames(of:)` are the candidates' file names, in order, for `Journal.markRunning`.
    static func fileNames(of candidates: [Candidate]) -> [String?] {
        candidates.map { $0.0.fileName }
    }

    /// `Claim` is what `claimFileNames(_:)` learned of a task it named: its URL parsed, and
    /// whether it found no `.part` at the name (`start` then takes that `.part` path as it is,
    /// without looking again).
    struct Claim {
        let parsed: URL
        let partIsFree: Bool
    }

    /// `parse(_:)` is `url` parsed as `start` parses it: validated when the task was added, so
    /// one parse, and the full check only to word an error.
    static func parse(_ url: TransferURL) throws(FerryError) -> URL {
        if let quick = URL(string: url.string) { return quick }
        return try Request.validatedURL(url.string)
    }

    /// `freshDestination(for:url:parsed:avoiding:)` is the destination `claimFileNames(_:)`
    /// gives a download, and whether it found its `.part` free; `claimed` are the `.part`
    /// paths of the other chosen downloads.
    private func freshDestination(for record: TaskRecord, url: TransferURL, parsed: URL, avoiding claimed: Set<String>) throws(FerryError) -> (destination: DownloadDestination, checkedFree: Bool) {
        let wanted = try wantedName(for: record, url: url, parsed: parsed)
        var destination = directoryPrototype(record.spec.destinationDirectory ?? configuration.defaultDirectory)
        destination.overwrite = record.spec.overwrite
        // A `.part` of its own may exist: a resume record, or a start recorded before.
        let ranBefore = record.startedAt != nil || record.resume.durableOffset > 0
        for counter in 0...10_000 {
            destination.fileName = counter == 0 ? wanted : SafeFileName.numbered(wanted, counter)
            let partPath = destination.partialFilePath
            if destinationsInUse.contains(partPath) || claimed.contains(partPath) { continue }
            if !ranBefore {
                if Scheduler.exists(partPath) { continue }
                if !record.spec.overwrite, Scheduler.exists(destination.filePath(named: destination.fileName)) { continue }
            }
            return (destination, !ranBefore)
        }
        return (destination, false)
    }

    /// `exists(_:)` is true when something (a symlink included) has the name `path`.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
