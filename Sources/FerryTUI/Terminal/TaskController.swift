/// `TaskController` is what the application implements to drive the front end: it feeds
/// task rows into the inbox and carries out the user's commands.
public protocol TaskController: AnyObject, Sendable {
    /// `attach(_:)` is called once, before the first frame. The controller keeps the inbox
    /// and posts rows to it from any thread: a `replaceTasks` snapshot first, then updates
    /// (progress at most a few times a second per task) and removals.
    func attach(_ inbox: EventInbox)

    /// `perform(_:)` carries out a command. It is called on the front end's thread and must
    /// return quickly: queue the work and report results by posting rows or a message.
    func perform(_ command: TUICommand)
}
