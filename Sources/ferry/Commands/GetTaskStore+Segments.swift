import FerryQueue
import FerryRPC

extension DownloadJournal {
    /// `adopt(_:of:)` records this run's `-x` and `--min-split-size` for a download queued
    /// again (a task started with N connections resumes with another N), where given.
    func adopt(_ options: TaskOptions, of record: TaskRecord) throws(QueueError) {
        let connections = options.connections ?? record.spec.options.connections
        let minSplitSize = options.minSplitSize ?? record.spec.options.minSplitSize
        guard connections != record.spec.options.connections || minSplitSize != record.spec.options.minSplitSize else { return }
        try journal.setSegmentation(connections: connections, minSplitSize: minSplitSize, for: record.id)
    }

    /// `adopt(_:of:)` records this run's trust, login, proxy and cookie settings for a
    /// download queued again (those of the earlier run are replaced).
    func adopt(_ connection: ConnectionSettings, of record: TaskRecord) throws(QueueError) {
        guard connection != record.spec.connection else { return }
        try journal.setConnection(connection, for: record.id)
    }
}

extension DaemonDownloads {
    /// `adopt(_:of:)` keeps a daemon's task as it was added: the daemon's options change only
    /// through its own commands.
    func adopt(_ options: TaskOptions, of record: TaskRecord) async throws {}

    /// `adopt(_:of:)` gives a daemon's task this run's trust, login, proxy and cookie settings
    /// (`aria2.changeOption`: each option given replaces the task's own; an earlier run's
    /// option this run does not give stays). Whether TLS is checked is always said, so an
    /// earlier run's `-k` never outlives a run without it.
    func adopt(_ connection: ConnectionSettings, of record: TaskRecord) async throws {
        guard connection != record.spec.connection else { return }
        var options = TaskRequest.connectionOptions(connection)
        options["check-certificate"] = connection.insecure ? "false" : "true"
        _ = try await daemon.call("aria2.changeOption", [.string(GID.string(for: record.id)), .object(options)])
    }
}
