/// `TUIState` is everything the screen shows, updated only by `apply(_:)`.
///
/// The task table is a window onto a list the controller keeps: the state holds the rows
/// around the screen (`window`), the list's length and the queue's figures, never the whole
/// queue. When the screen moves past the rows held, or the filter, the order or the selected
/// task changes, `apply(_:)` returns a `TUIEffect.show` request; the controller answers with
/// a `TUIEvent.window`, and sends a new one for the latest request whenever the queue
/// changes. The selection follows its task: each request names it (`anchor`) and the answer
/// says where it stands now; when the task is gone the row that takes its place is selected.
public struct TUIState: Sendable {
    /// `environment` supplies the default directory and the file check for the dialogs.
    public let environment: TUIEnvironment
    /// `keys` are the key maps in use.
    public let keys: KeyMaps
    /// `window` is the last answer for the current query, `nil` before the first.
    public private(set) var window: TaskWindow?
    /// `stats` are the header's counts and speeds over all tasks.
    public private(set) var stats = TaskStats()
    /// `query` is the table's filter and order.
    public private(set) var query = TaskQuery()
    /// `selectedIndex` is the selected row's index in the list (0 when the table is empty).
    public private(set) var selectedIndex = 0
    /// `selectedID` is the selected task's id, `nil` when the table is empty or the
    /// selected row is not loaded yet.
    public private(set) var selectedID: TaskRow.ID?
    /// `scrollTop` is the index in the list of the first row on screen.
    public private(set) var scrollTop = 0
    /// `showDetail` is true when the detail pane is wanted. `true` by default.
    public private(set) var showDetail = true
    /// `mode` says what receives keys.
    public private(set) var mode = TUIMode.list
    /// `message` is the message line's note, `nil` when empty.
    public private(set) var message: StatusMessage?
    /// `layout` is the screen's division for the current size.
    public private(set) var layout: Layout
    /// `tick` counts ticks; it animates progress bars of unknown size.
    public private(set) var tick = 0
    /// `addDirectory` pre-fills the add-download dialog: the directory of the last download
    /// added (in this session, else `environment.lastDirectory`), else the default directory.
    public private(set) var addDirectory: String
    /// `isFinished` becomes true when the user quits or the application closes the front end.
    public private(set) var isFinished = false

    /// `lastRequest` is the last `show` request returned as an effect, `nil` before the first.
    public private(set) var lastRequest: TaskViewRequest?
    /// The dialog behind the last command it produced, kept so a rejection can reopen it.
    private var submitted: (command: TUICommand, dialog: FormDialog)?

    /// `init(size:environment:keys:)` makes an empty state for a screen of `size`.
    public init(size: Size = Size(width: 80, height: 24), environment: TUIEnvironment = TUIEnvironment(), keys: KeyMaps = .standard) {
        self.environment = environment
        self.keys = keys
        self.layout = Layout(size: size, showDetail: true)
        self.addDirectory = environment.lastDirectory ?? environment.defaultDirectory
    }

    /// `filter` is the case-insensitive name filter; empty shows everything.
    public var filter: String { query.filter }
    /// `sortOrder` is the table's order. `.queue` by default.
    public var sortOrder: SortOrder { query.sortOrder }
    /// `listCount` is the number of tasks the table lists (0 before the first window).
    public var listCount: Int { window?.total ?? 0 }

    /// `selectedTask` is the selected row, `nil` when the table is empty or the row is not loaded yet.
    public var selectedTask: TaskRow? { row(at: selectedIndex) }

    /// `isBusy` is true while a task runs or waits in the queue.
    public var isBusy: Bool { stats.count(.running) + stats.count(.queued) > 0 }

    /// `wantsTick` is true while a task runs; the run loop ticks only then.
    public var wantsTick: Bool { stats.count(.running) > 0 }

    /// `row(at:)` is the listed row at `index`, `nil` outside the table or the rows loaded.
    public func row(at index: Int) -> TaskRow? {
        window?.row(at: index)
    }

    /// `update(_:)` applies one event; see `apply(_:)`.
    public mutating func update(_ event: TUIEvent) -> [TUIEffect] {
        apply([event])
    }

    /// `apply(_:)` applies a batch of events in order and returns the effects to carry out,
    /// ending with a `show` request when the screen needs rows it does not hold.
    public mutating func apply(_ events: [TUIEvent]) -> [TUIEffect] {
        var effects: [TUIEffect] = []
        let wasBusy = isBusy
        for event in events {
            switch event {
            case .window(let answer):
                stats = answer.stats
                guard answer.request.query == query else { continue }
                window = answer
                if let index = answer.anchorIndex, let anchor = answer.request.anchor, anchor == selectedID {
                    select(index, keeping: anchor)
                } else {
                    select(selectedIndex)
                }
            case .updateTasks(let rows):
                patch(rows)
            case .stats(let figures):
                stats = figures
            case .message(let note):
                message = note
            case .rejected(let command, let problem):
                reopen(command, with: problem)
            case .key(let key):
                effects += handle(key)
            case .paste(let text):
                handlePaste(text)
            case .resize(let size):
                relayout(size: size)
            case .tick:
                tick &+= 1
            case .close:
                isFinished = true
                effects.append(.quit)
            }
        }
        if environment.ringsWhenQueueEmpties, wasBusy, !isBusy, !isFinished {
            effects.append(.bell)
        }
        if !isFinished, let request = neededRequest() {
            lastRequest = request
            effects.append(.show(request))
        }
        return effects
    }

    // MARK: - Changes used by the key handlers

    mutating func setMode(_ newMode: TUIMode) { mode = newMode }

    mutating func setMessage(_ note: StatusMessage?) { message = note }
    /// `showLimits(_:)` shows limits the user just asked for, before the engine confirms them.
    mutating func showLimits(_ limits: TransferLimits) { stats.limits = limits }

    mutating func finish() { isFinished = true }

    /// `remember(_:from:)` keeps the dialog that produced `command`.
    mutating func remember(_ command: TUICommand, from dialog: FormDialog) { submitted = (command, dialog) }

    /// `reopen(_:with:)` reopens the dialog that produced a rejected command with the
    /// problem inside it, when the list has the keys; otherwise shows the problem as an error.
    mutating func reopen(_ command: TUICommand, with problem: FieldProblem) {
        guard case .list = mode, let submitted, submitted.command == command else {
            message = StatusMessage(problem.message, isError: true)
            return
        }
        var dialog = submitted.dialog
        dialog.reject(problem)
        self.submitted = nil
        message = nil
        mode = .form(dialog)
    }

    /// `forgetSubmitted()` drops the dialog kept for a rejection (several commands came out of it).
    mutating func forgetSubmitted() { submitted = nil }

    /// `setAddDirectory(_:)` remembers the directory of the download just added.
    mutating func setAddDirectory(_ directory: String) { addDirectory = directory }

    mutating func setFilter(_ text: String) {
        query.filter = text
    }

    mutating func cycleSort() {
        query.sortOrder = query.sortOrder.next
    }

    mutating func toggleDetail() {
        showDetail.toggle()
        relayout(size: layout.size)
    }

    /// Selects the row at `index`, clamped to the list, and scrolls it into view. The
    /// selected task is the row's when it is loaded, else `keeping` (its id, when known).
    mutating func select(_ index: Int, keeping id: TaskRow.ID? = nil) {
        let count = listCount
        selectedIndex = count == 0 ? 0 : min(max(0, index), count - 1)
        selectedID = count == 0 ? nil : row(at: selectedIndex)?.id ?? id
        clampScroll()
    }

    // MARK: - Internals

    /// `patch(_:)` replaces the loaded rows that have these ids (live progress); rows not
    /// loaded are off screen and ignored.
    private mutating func patch(_ rows: [TaskRow]) {
        guard var answer = window, !rows.isEmpty else { return }
        var changed = false
        for row in rows {
            guard let index = answer.rows.firstIndex(where: { $0.id == row.id }) else { continue }
            answer.rows[index] = row
            changed = true
        }
        if changed { window = answer }
    }

    /// `neededRequest()` is the request to send, `nil` when the last one sent already asks
    /// for the rows on screen, in the current query, with the current selection.
    private func neededRequest() -> TaskViewRequest? {
        let screen = max(1, layout.tableRows)
        let wanted = TaskViewRequest(query: query, offset: scrollTop - screen, limit: 3 * screen, anchor: selectedID)
        guard let requested = lastRequest, requested.query == query, requested.anchor == selectedID else { return wanted }
        let end = window.map { min($0.total, scrollTop + screen) } ?? scrollTop + screen
        let asked = requested.offset..<(requested.offset + requested.limit)
        let covered = scrollTop >= asked.lowerBound && end <= asked.upperBound
        return covered ? nil : wanted
    }

    private mutating func relayout(size: Size) {
        layout = Layout(size: size, showDetail: showDetail)
        clampScroll()
        if case .help(let scroll) = mode { mode = .help(scroll: clampedHelpScroll(scroll)) }
        if case .text(var viewer) = mode {
            viewer.scroll = clampedTextScroll(viewer.scroll, of: viewer)
            mode = .text(viewer)
        }
    }

    private mutating func clampScroll() {
        let rows = max(1, layout.tableRows)
        if selectedIndex < scrollTop { scrollTop = selectedIndex }
        if selectedIndex >= scrollTop + rows { scrollTop = selectedIndex - rows + 1 }
        scrollTop = min(max(0, scrollTop), max(0, listCount - rows))
    }

    /// `clampedTextScroll(_:of:)` clamps a full-text scroll offset to the wrapped text's length.
    func clampedTextScroll(_ scroll: Int, of viewer: TextViewer) -> Int {
        let total = viewer.lines(width: layout.textWidth).count
        return min(max(0, scroll), max(0, total - layout.textLines))
    }

    /// `clampedHelpScroll(_:)` clamps a help-screen scroll offset to the help text's length.
    func clampedHelpScroll(_ scroll: Int) -> Int {
        let total = HelpView.lineCount(keys: keys, boxWidth: layout.helpBox.width)
        return min(max(0, scroll), max(0, total - layout.helpLines))
    }
}
