import FerryQueue

extension DownloadJournal {
    /// `adopt(_:of:)` records this run's `-x` and `--min-split-size` for a download queued
    /// again (a task started with N connections resumes with another N), where given.
    func adopt(_ options: TaskOptions, of record: TaskRecord) throws(QueueError) {
        let connections = options.connections ?? record.spec.options.connections
        let minSplitSize = options.minSplitSize ?? record.spec.options.minSplitSize
        guard connections != record.spec.options.connections || minSplitSize != record.spec.options.minSplitSize else { return }
        try journal.setSegmentation(connections: connections, minSplitSize: minSplitSize, for: record.id)
    }
}

extension DaemonDownloads {
    /// `adopt(_:of:)` keeps a daemon's task as it was added: the daemon's options change only
    /// through its own commands.
    func adopt(_ options: TaskOptions, of record: TaskRecord) async throws {}
}
