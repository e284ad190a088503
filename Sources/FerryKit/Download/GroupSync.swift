import CFerrySystem
import Glibc

/// `GroupSync` makes the data of several finished downloads durable at once (a group commit).
///
/// One file gets an `fdatasync`. Several files on one file system get a single `syncfs`,
/// which writes their pages and inodes together: on ext4, a `fdatasync` per 16 KiB file costs
/// about as much as the rest of the download, and most of it is the same inode-table block
/// written again for each file. When `syncfs` fails (it reports write-back errors of the whole
/// file system), each file is synchronized on its own so the error lands on the right one.
enum GroupSync {
    /// `synchronize(_:)` returns, for each file in order, `nil` when its data is on the disk
    /// or the error that kept it from getting there.
    /// An unnamed file's bytes held in memory and its pending mark are written first
    /// (`PartialFile.writeHeldBytes()`, `writePendingMark()`), so they are durable with the
    /// rest; a file whose bytes or mark cannot be written gets that error.
    static func synchronize(_ files: [PartialFile]) -> [FerryError?] {
        guard files.count > 1 else {
            return files.map { $0.writePendingMark() ?? synchronizeOne($0) }
        }
        var results = [FerryError?](repeating: nil, count: files.count)
        var byDevice: [UInt: [Int]] = [:]
        for (index, file) in files.enumerated() {
            if let error = writeHeldBytes(of: file) ?? file.writePendingMark() {
                results[index] = error
                continue
            }
            var status = stat()
            if fstat(file.descriptor, &status) == 0 {
                byDevice[UInt(status.st_dev), default: []].append(index)
            } else {
                results[index] = synchronizeOne(file)
            }
        }
        for indices in byDevice.values {
            guard indices.count > 1, syncFileSystem(of: files[indices[0]]) else {
                for index in indices { results[index] = synchronizeOne(files[index]) }
                continue
            }
        }
        return results
    }

    /// `writeHeldBytes(of:)` writes the bytes `file` holds in memory; the error, or `nil`.
    private static func writeHeldBytes(of file: PartialFile) -> FerryError? {
        error(of: file.writeHeldBytes)
    }

    private static func synchronizeOne(_ file: PartialFile) -> FerryError? {
        error(of: file.synchronize)
    }

    /// `error(of:)` is the error `step` throws, or `nil`.
    private static func error(of step: () throws(FerryError) -> Void) -> FerryError? {
        do throws(FerryError) {
            try step()
            return nil
        } catch {
            return error
        }
    }

    private static func syncFileSystem(of file: PartialFile) -> Bool {
        SystemCall.retrying { csystem_sync_file_system(file.descriptor) } == 0
    }

    /// `makeDurable(_:)` makes the files of the delegates among `delegates` that wait for a
    /// sync (`DurableCompletion`) durable together, and tells each how it went; the others
    /// are passed over. The engine's completion thread calls it for the transfers that ended
    /// well at about the same time, before their `didCompleteWith` names the files.
    static func makeDurable(_ delegates: [any TaskDelegate]) {
        var durable: [(any DurableCompletion, PartialFile)] = []
        for delegate in delegates {
            guard let waiting = delegate as? any DurableCompletion, let file = waiting.fileAwaitingSync else { continue }
            durable.append((waiting, file))
        }
        guard !durable.isEmpty else { return }
        let errors = synchronize(durable.map(\.1))
        for ((delegate, _), error) in zip(durable, errors) {
            delegate.didSynchronize(error)
        }
    }
}

/// `DurableCompletion` is a delegate whose completion gives a file its final name, which must
/// only happen once the file's data is durable. The engine synchronizes the files of transfers
/// that end together with one `GroupSync` before their `didCompleteWith` runs.
protocol DurableCompletion: AnyObject {
    /// On the engine thread, when the transfer ended on its own with a response: the file
    /// whose data must be durable before `didCompleteWith`, `nil` when there is none.
    var fileAwaitingSync: PartialFile? { get }
    /// On the completion thread, before `didCompleteWith`: the outcome of that
    /// synchronization, `nil` when the data is durable.
    func didSynchronize(_ error: FerryError?)
}
