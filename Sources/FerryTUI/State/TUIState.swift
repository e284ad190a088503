/// `TUIState` is everything the screen shows, updated only by `apply(_:)`.
///
/// Tasks are stored by id; the filtered and sorted list of visible ids is cached and rebuilt
/// only when membership, the filter, the sort order or a field the order depends on changes,
/// and then at most once per batch of events. The selection follows its task across
/// rebuilds; when the task disappears the row that takes its place is selected.
public struct TUIState: Sendable {
    /// `environment` supplies the default directory and the file check for the dialogs.
    public let environment: TUIEnvironment
    /// `keys` are the key maps in use.
    public let keys: KeyMaps
    /// `tasks` are all known tasks by id.
    public private(set) var tasks: [TaskRow.ID: TaskRow] = [:]
    /// `visible` are the ids shown in the table, filtered and sorted.
    public private(set) var visible: [TaskRow.ID] = []
    /// `stats` are the header's counts and speeds over all tasks.
    public private(set) var stats = TaskStats()
    /// `filter` is the case-insensitive name filter; empty shows everything.
    public private(set) var filter = ""
    /// `sortOrder` is the table's order. `.queue` by default.
    public private(set) var sortOrder = SortOrder.queue
    /// `selectedIndex` is the selected row's index in `visible` (0 when the table is empty).
    public private(set) var selectedIndex = 0
    /// `selectedID` is the selected task's id, `nil` when the table is empty.
    public private(set) var selectedID: TaskRow.ID?
    /// `scrollTop` is the index in `visible` of the first row on screen.
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
    /// `isFinished` becomes true when the user quits or the application closes the front end.
    public private(set) var isFinished = false

    private var needsReindex = false
    /// The dialog behind the last command it produced, kept so a rejection can reopen it.
    private var submitted: (command: TUICommand, dialog: FormDialog)?

    /// `init(size:environment:keys:)` makes an empty state for a screen of `size`.
    public init(size: Size = Size(width: 80, height: 24), environment: TUIEnvironment = TUIEnvironment(), keys: KeyMaps = .standard) {
        self.environment = environment
        self.keys = keys
        self.layout = Layout(size: size, showDetail: true)
    }

    /// `selectedTask` is the selected row, `nil` when the table is empty.
    public var selectedTask: TaskRow? { selectedID.flatMap { tasks[$0] } }

    /// `wantsTick` is true while a task runs; the run loop ticks only then.
    public var wantsTick: Bool { stats.count(.running) > 0 }

    /// `row(at:)` is the visible row at `index`, `nil` outside the table.
    public func row(at index: Int) -> TaskRow? {
        guard index >= 0, index < visible.count else { return nil }
        return tasks[visible[index]]
    }

    /// `update(_:)` applies one event; see `apply(_:)`.
    public mutating func update(_ event: TUIEvent) -> [TUIEffect] {
        apply([event])
    }

    /// `apply(_:)` applies a batch of events in order and returns the effects to carry out.
    /// The visible list is rebuilt at most once, at the end (or before a key needs it).
    public mutating func apply(_ events: [TUIEvent]) -> [TUIEffect] {
        var effects: [TUIEffect] = []
        for event in events {
            switch event {
            case .replaceTasks(let rows):
                tasks = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
                stats = TaskStats(rows: tasks.values)
                needsReindex = true
            case .updateTasks(let rows):
                for row in rows { upsert(row) }
            case .removeTasks(let ids):
                for id in ids {
                    guard let old = tasks.removeValue(forKey: id) else { continue }
                    stats.remove(old)
                    needsReindex = true
                }
            case .message(let note):
                message = note
            case .rejected(let command, let problem):
                reopen(command, with: problem)
            case .key(let key):
                reindexIfNeeded()
                effects += handle(key)
            case .resize(let size):
                relayout(size: size)
            case .tick:
                tick &+= 1
            case .close:
                isFinished = true
                effects.append(.quit)
            }
        }
        reindexIfNeeded()
        return effects
    }

    // MARK: - Changes used by the key handlers

    mutating func setMode(_ newMode: TUIMode) { mode = newMode }

    mutating func setMessage(_ note: StatusMessage?) { message = note }

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

    mutating func setFilter(_ text: String) {
        guard text != filter else { return }
        filter = text
        needsReindex = true
        reindexIfNeeded()
    }

    mutating func cycleSort() {
        sortOrder = sortOrder.next
        needsReindex = true
        reindexIfNeeded()
    }

    mutating func toggleDetail() {
        showDetail.toggle()
        relayout(size: layout.size)
    }

    /// Selects the row at `index`, clamped to the table, and scrolls it into view.
    mutating func select(_ index: Int) {
        selectedIndex = visible.isEmpty ? 0 : min(max(0, index), visible.count - 1)
        selectedID = visible.isEmpty ? nil : visible[selectedIndex]
        clampScroll()
    }

    // MARK: - Internals

    private mutating func upsert(_ row: TaskRow) {
        if let old = tasks[row.id] {
            stats.remove(old)
            if old.name != row.name || old.priority != row.priority || old.position != row.position
                || (sortOrder == .state && old.state != row.state)
                || (sortOrder.dependsOnProgress && (old.speed != row.speed || old.fraction != row.fraction)) {
                needsReindex = true
            }
        } else {
            needsReindex = true
        }
        tasks[row.id] = row
        stats.add(row)
    }

    private mutating func reindexIfNeeded() {
        guard needsReindex else { return }
        needsReindex = false
        let needle = filter.lowercased()
        visible = needle.isEmpty
            ? sortOrder.sorted(tasks.values)
            : sortOrder.sorted(tasks.values.lazy.filter { $0.name.lowercased().contains(needle) })
        if let id = selectedID, let index = visible.firstIndex(of: id) {
            select(index)
        } else {
            select(selectedIndex)
        }
    }

    private mutating func relayout(size: Size) {
        layout = Layout(size: size, showDetail: showDetail)
        clampScroll()
        if case .help(let scroll) = mode { mode = .help(scroll: clampedHelpScroll(scroll)) }
    }

    private mutating func clampScroll() {
        let rows = max(1, layout.tableRows)
        if selectedIndex < scrollTop { scrollTop = selectedIndex }
        if selectedIndex >= scrollTop + rows { scrollTop = selectedIndex - rows + 1 }
        scrollTop = min(max(0, scrollTop), max(0, visible.count - rows))
    }

    /// `clampedHelpScroll(_:)` clamps a help-screen scroll offset to the help text's length.
    func clampedHelpScroll(_ scroll: Int) -> Int {
        let total = HelpView.lineCount(keys: keys)
        return min(max(0, scroll), max(0, total - layout.helpLines))
    }
}
