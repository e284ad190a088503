/// `TaskKind` says which way a task moves bytes.
public enum TaskKind: Sendable, Hashable {
    /// `download`: the task fetches a remote resource into a local file.
    case download
    /// `upload`: the task sends local files and form fields to a server.
    case upload
}
