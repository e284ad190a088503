import FerryQueue
import FerryRPC

extension DownloadJournal {
    /// `adopt(_:of:)` records this run's `--checksum` (or none) for a download queued again:
    /// what the command line says is what counts, never an earlier run's checksum.
    func adopt(_ checksum: Checksum?, of record: TaskRecord) throws(QueueError) {
        guard checksum != record.spec.checksum else { return }
        try journal.setChecksum(checksum, for: record.id)
    }
}

extension DaemonDownloads {
    /// `adopt(_:of:)` keeps a daemon's task's checksum as it was added: the daemon's options
    /// change only through its own commands.
    func adopt(_ checksum: Checksum?, of record: TaskRecord) async throws {}
}

extension DownloadJournal {
    /// `forget(_:)` removes a finished download whose file is no longer the one Ferry saved,
    /// once this run has queued it again: one row per URL and destination.
    func forget(_ record: TaskRecord) throws(QueueError) {
        try journal.remove([record.id])
    }
}

extension DaemonDownloads {
    /// `forget(_:)` removes a finished download's row from the daemon's list
    /// (`aria2.removeDownloadResult`), once this run has queued it again.
    func forget(_ record: TaskRecord) async throws {
        _ = try await daemon.call("aria2.removeDownloadResult", [.string(GID.string(for: record.id))])
    }
}
