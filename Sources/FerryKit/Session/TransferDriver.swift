/// `TransferDriver` runs a task in place of the engine: a delegate that makes transfers of
/// its own (a segmented download's connections) and ends its task itself. The task's
/// `resume()`, `pause()` and `cancel()` come here, on the caller's thread.
protocol TransferDriver: AnyObject, Sendable {
    func start(_ task: TransferTask)
    func pause(_ task: TransferTask)
    func resume(_ task: TransferTask)
    func cancel(_ task: TransferTask)
}
