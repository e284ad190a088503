/// `KeyMaps` holds the key map of every context of the front end.
public struct KeyMaps: Sendable {
    /// `list` is the task list's map.
    public var list: KeyMap<ListAction>
    /// `form` is the add dialogs' map (field navigation, submit, cancel).
    public var form: KeyMap<FormAction>
    /// `edit` is the line-editing map shared by dialog fields and the filter prompt.
    public var edit: KeyMap<EditAction>
    /// `filter` is the filter prompt's map.
    public var filter: KeyMap<FilterAction>
    /// `confirm` is the remove confirmation's map.
    public var confirm: KeyMap<ConfirmAction>
    /// `help` is the help screen's map.
    public var help: KeyMap<HelpAction>
    /// `text` is the full-text view's map.
    public var text: KeyMap<TextAction>
    /// `purge` is the map of the question that removes finished tasks.
    public var purge: KeyMap<PurgeAction>
    /// `stop` is the map of the question that quits and stops the transfers.
    public var stop: KeyMap<StopAction>

    /// `init(list:form:edit:filter:confirm:help:text:purge:)` assembles a set of maps; the
    /// full-text view, the purge question and the stop question use the standard maps by default.
    public init(
        list: KeyMap<ListAction>, form: KeyMap<FormAction>, edit: KeyMap<EditAction>,
        filter: KeyMap<FilterAction>, confirm: KeyMap<ConfirmAction>, help: KeyMap<HelpAction>,
        text: KeyMap<TextAction> = KeyMaps.standardText, purge: KeyMap<PurgeAction> = KeyMaps.standardPurge,
        stop: KeyMap<StopAction> = KeyMaps.standardStop
    ) {
        self.text = text
        self.purge = purge
        self.stop = stop
        self.list = list
        self.form = form
        self.edit = edit
        self.filter = filter
        self.confirm = confirm
        self.help = help
    }

    /// `helpSections` are the help screen's contents: one titled section per map.
    public var helpSections: [(title: String, entries: [(keys: String, help: String)])] {
        [
            (list.title, list.helpEntries),
            (form.title, form.helpEntries),
            (edit.title, edit.helpEntries),
            (filter.title, filter.helpEntries),
            (confirm.title, confirm.helpEntries),
            (purge.title, purge.helpEntries),
            (stop.title, stop.helpEntries),
            (text.title, text.helpEntries),
            (help.title, help.helpEntries),
        ]
    }

    /// `standard` is Ferry's default key layout.
    public static let standard = KeyMaps(
        list: KeyMap(title: "Task list", bindings: [
            KeyBinding([.up, .character("k")], .moveUp, help: "Select the previous task"),
            KeyBinding([.down, .character("j")], .moveDown, help: "Select the next task"),
            KeyBinding([.pageUp], .pageUp, help: "Select one page up"),
            KeyBinding([.pageDown], .pageDown, help: "Select one page down"),
            KeyBinding([.character("g"), .home], .first, help: "Select the first task"),
            KeyBinding([.character("G"), .end], .last, help: "Select the last task"),
            KeyBinding([.character("a")], .addDownload, hint: "Add", help: "Add a download"),
            KeyBinding([.character("u")], .addUpload, hint: "Upload", help: "Add an upload"),
            KeyBinding([.character(" ")], .togglePause, hint: "Pause", alternateHint: "Resume", help: "Pause or resume the selected task"),
            KeyBinding([.character("P")], .togglePauseAll, help: "Pause all tasks, or resume all when none is active"),
            KeyBinding([.character("r")], .retry, hint: "Retry", help: "Retry the selected failed task"),
            KeyBinding([.character("x"), .delete, .function(9)], .remove, hint: "Remove", help: "Remove the selected task (asks first)"),
            KeyBinding([.character("X")], .purge, help: "Remove the done or the failed tasks from the list (asks first; files are kept)"),
            KeyBinding([.character("K")], .moveTaskUp, help: "Move the selected task up in the queue"),
            KeyBinding([.character("J")], .moveTaskDown, help: "Move the selected task down in the queue"),
            KeyBinding([.character("/")], .filter, hint: "Filter", help: "Filter by name; state:failed and host:example.org narrow it"),
            KeyBinding([.function(3)], .filter, help: "Filter (as /)"),
            KeyBinding([.escape], .clearFilter, help: "Clear the filter"),
            KeyBinding([.character("s")], .cycleSort, help: "Cycle the sort order"),
            KeyBinding([.character("+"), .character("=")], .fasterOverall, help: "Raise the download speed all transfers share, one step (the header shows it)"),
            KeyBinding([.character("-")], .slowerOverall, help: "Lower the download speed all transfers share, one step"),
            KeyBinding([.character("l")], .typeTaskLimit, help: "Type the selected download's own speed limit (applies at once, also while it runs)"),
            KeyBinding([.character("R")], .typeRetarget, help: "Give the selected download a new URL (an expired link): its bytes are kept only if the new one serves the same file"),
            KeyBinding([.character("L")], .typeOverallLimit, help: "Type the download speed all transfers share (2M, 500K, off)"),
            KeyBinding([.character("]")], .moreAtOnce, help: "Allow one more transfer at once (the header shows the limits)"),
            KeyBinding([.character("[")], .fewerAtOnce, help: "Allow one transfer fewer at once (running ones finish)"),
            KeyBinding([.character("}")], .morePerHost, help: "Allow one more transfer at once to one host"),
            KeyBinding([.character("{")], .fewerPerHost, help: "Allow one transfer fewer at once to one host"),
            KeyBinding([.enter], .toggleDetail, help: "Show or hide the detail pane"),
            KeyBinding([.character("v")], .viewText, help: "Read the selected task's details in full (long errors, upload replies)"),
            KeyBinding([.paste], .addPasted, help: "Pasted text opens the add dialog with it, one download per URL"),
            KeyBinding([.character("?"), .function(1)], .help, hint: "Help", help: "Show this help"),
            KeyBinding([.character("q"), .function(10)], .quit, hint: "Quit", help: "Quit; the transfers go on in the background"),
            KeyBinding([.character("Q")], .quitAndStop, help: "Quit and stop the transfers (asks first; they stay queued)"),
            KeyBinding([.control("l")], .redraw, help: "Redraw the screen"),
        ]),
        form: KeyMap(title: "Add dialogs", bindings: [
            KeyBinding([.tab, .down], .nextField, hint: "Next", help: "Go to the next field"),
            KeyBinding([.backTab, .up], .previousField, help: "Go to the previous field"),
            KeyBinding([.enter], .submit, hint: "OK", help: "Check the fields and add the task"),
            KeyBinding([.escape], .cancel, hint: "Cancel", help: "Close the dialog without adding"),
        ]),
        edit: KeyMap(title: "Line editing", bindings: [
            KeyBinding([.left, .control("b")], .left, help: "Move the cursor left"),
            KeyBinding([.right, .control("f")], .right, help: "Move the cursor right"),
            KeyBinding([.home, .control("a")], .home, help: "Move to the start of the line"),
            KeyBinding([.end, .control("e")], .end, help: "Move to the end of the line"),
            KeyBinding([.backspace], .backspace, help: "Delete the character before the cursor"),
            KeyBinding([.delete, .control("d")], .deleteForward, help: "Delete the character under the cursor"),
            KeyBinding([.control("u")], .deleteToStart, help: "Delete to the start of the line"),
            KeyBinding([.control("k")], .deleteToEnd, help: "Delete to the end of the line"),
            KeyBinding([.control("w")], .deleteWordBackward, help: "Delete the word before the cursor"),
        ]),
        filter: KeyMap(title: "Filter prompt", bindings: [
            KeyBinding([.enter], .apply, hint: "Keep", help: "Keep the filter and return to the list"),
            KeyBinding([.escape], .clear, hint: "Clear", help: "Clear the filter and return to the list"),
        ]),
        confirm: KeyMap(title: "Remove confirmation", bindings: [
            KeyBinding([.character("y")], .remove, hint: "Remove", help: "Remove the task, keep its file"),
            KeyBinding([.character("d")], .removeAndDeleteFile, hint: "Remove+delete file", help: "Remove the task and delete its file"),
            KeyBinding([.character("n"), .escape], .cancel, hint: "Cancel", help: "Keep the task"),
        ]),
        help: KeyMap(title: "Help screen", bindings: [
            KeyBinding([.up, .character("k")], .scrollUp, help: "Scroll up"),
            KeyBinding([.down, .character("j")], .scrollDown, hint: "Scroll", help: "Scroll down"),
            KeyBinding([.pageUp], .pageUp, help: "Scroll up one page"),
            KeyBinding([.pageDown], .pageDown, help: "Scroll down one page"),
            KeyBinding([.escape, .character("q"), .character("?"), .function(1), .function(10)], .close, hint: "Close", help: "Close the help screen"),
        ]),
        text: standardText,
        purge: standardPurge
    )

    /// `standardText` is the full-text view's default map.
    public static let standardText = KeyMap<TextAction>(title: "Full text", bindings: [
        KeyBinding([.up, .character("k")], .scrollUp, help: "Scroll up"),
        KeyBinding([.down, .character("j")], .scrollDown, hint: "Scroll", help: "Scroll down"),
        KeyBinding([.pageUp], .pageUp, help: "Scroll up one page"),
        KeyBinding([.pageDown, .character(" ")], .pageDown, help: "Scroll down one page"),
        KeyBinding([.home, .character("g")], .top, help: "Go to the top"),
        KeyBinding([.end, .character("G")], .bottom, help: "Go to the bottom"),
        KeyBinding([.escape, .character("q"), .character("v"), .function(10)], .close, hint: "Close", help: "Close the full text"),
    ])

    /// `standardStop` is the default map of the question that quits and stops the transfers.
    public static let standardStop = KeyMap<StopAction>(title: "Stop the transfers", bindings: [
        KeyBinding([.character("y")], .stop, hint: "Quit and stop", help: "Quit and stop the transfers (they stay queued)"),
        KeyBinding([.character("n"), .escape], .cancel, hint: "Cancel", help: "Stay"),
    ])

    /// `standardPurge` is the default map of the question that removes finished tasks.
    public static let standardPurge = KeyMap<PurgeAction>(title: "Remove finished tasks", bindings: [
        KeyBinding([.character("y")], .removeDone, hint: "Remove done", help: "Remove every done task from the list"),
        KeyBinding([.character("f")], .removeFailed, hint: "Remove failed", help: "Remove every failed task from the list"),
        KeyBinding([.character("n"), .escape], .cancel, hint: "Cancel", help: "Keep the tasks"),
    ])
}
