/// `RemovalConfirmation` is the state of the "remove this task?" question.
public struct RemovalConfirmation: Sendable, Hashable {
    /// `id` is the task to remove.
    public var id: TaskRow.ID
    /// `name` is the task's name, shown in the question.
    public var name: String
    /// `offersFileDeletion` is true when the task has a local file the user may delete (downloads).
    public var offersFileDeletion: Bool

    /// `init(id:name:offersFileDeletion:)` makes the question.
    public init(id: TaskRow.ID, name: String, offersFileDeletion: Bool) {
        self.id = id
        self.name = name
        self.offersFileDeletion = offersFileDeletion
    }
}
