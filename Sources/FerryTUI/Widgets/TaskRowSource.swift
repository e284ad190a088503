/// `TaskRowSource` is what the task table reads: the number of visible rows and the row at
/// an index. The table asks only for the rows on screen.
protocol TaskRowSource {
    var rowCount: Int { get }
    func row(at index: Int) -> TaskRow?
}

extension TUIState: TaskRowSource {
    var rowCount: Int { listCount }
}
