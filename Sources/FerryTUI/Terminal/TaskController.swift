/// `TaskController` is what the application implements to drive the front end: it feeds
/// task rows into the inbox and carries out the user's commands.
public protocol TaskController: AnyObject, Sendable {
    /// `attach(_:)` is called once, before the first frame. The controller keeps the inbox
    /// and posts to it from any thread: a `window` answering `TaskViewRequest.first` at once,
    /// then one answering the latest `show(_:)` request whenever it or the tasks change, and
    /// live progress (`updateTasks`, `stats`) at most a few times a second per task.
    func attach(_ inbox: EventInbox)

    /// `show(_:)` asks for the rows the screen needs. It is called on the front end's thread
    /// and must return quickly; the answer is a `TUIEvent.window`, for this request or a later one.
    func show(_ request: TaskViewRequest)

    /// `perform(_:)` carries out a command. It is called on the front end's thread and must
    /// return quickly: queue the work and report results by posting rows or a message.
    func perform(_ command: TUICommand)
}
