import CNCurses
#if canImport(Glibc)
import Glibc
#endif

/// `NCursesTerminal` is the ncursesw backend: it sets the terminal up, reads keys, copies
/// grids to the screen and restores the terminal. It is the only file that imports CNCurses.
///
/// Drawing compares each grid with the previous one and sends only the cells that changed.
/// Use it from one thread only (the run loop's).
final class NCursesTerminal {
    private struct Paint {
        var attributes: attr_t
        var pair: Int16
    }

    private var screen: OpaquePointer?
    private var previous: Grid?
    private var paints: [Paint] = []
    private var cursorVisible = false
    private var scalars: [UInt32] = []
    /// The text of a bracketed paste under way, `nil` outside one.
    private var pasted: String.UnicodeScalarView?
    /// The number of code points in `pasted`.
    private var pastedCount = 0
    /// `pasteLimit` bounds a paste kept in memory: 1 MiB of characters; the rest is dropped.
    static let pasteLimit = 1 << 20

    /// `init(wakeDescriptor:)` enters curses mode: locale from the environment, cbreak, no
    /// echo, keypad keys, no newline translation, non-blocking reads, a short Escape delay,
    /// colours unless `NO_COLOR` is set, the restoring signal handlers and bracketed paste.
    init(wakeDescriptor: Int32) throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        setlocale(LC_ALL, "")
        guard let screen = cncurses_newterm() else {
            throw .cursesFailed("cannot initialise the terminal (is TERM set?)")
        }
        self.screen = screen
        let window = cncurses_stdscr()
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        intrflush(window, false)
        nodelay(window, true)
        cncurses_set_escdelay(25)
        curs_set(0)
        let theme = Theme.choose(noColor: getenv("NO_COLOR").map { String(cString: $0) }, terminalHasColors: has_colors())
        if theme.usesColor {
            start_color()
            use_default_colors()
        }
        paints = Style.allCases.map { style in
            let look = theme.appearance(for: style)
            var attributes = cncurses_attr_normal()
            if look.bold { attributes |= cncurses_attr_bold() }
            if look.dim { attributes |= cncurses_attr_dim() }
            if look.reverse { attributes |= cncurses_attr_reverse() }
            if look.underline { attributes |= cncurses_attr_underline() }
            guard theme.usesColor, look.foreground != nil || look.background != nil else {
                return Paint(attributes: attributes, pair: 0)
            }
            let pair = Int16(style.rawValue + 1)
            init_pair(pair, Int16(look.foreground?.rawValue ?? -1), Int16(look.background?.rawValue ?? -1))
            return Paint(attributes: attributes, pair: pair)
        }
        guard cncurses_install_handlers(wakeDescriptor) == 0 else {
            let code = errno
            end()
            throw .system("sigaction", code)
        }
        cncurses_enable_paste()
    }

    deinit { end() }

    /// `size` is the terminal's current size.
    var size: Size {
        let window = cncurses_stdscr()
        return Size(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
    }

    /// `wasInterrupted` is true once SIGINT, SIGTERM or SIGHUP arrived.
    var wasInterrupted: Bool { cncurses_was_interrupted() != 0 }

    /// `readEvents()` reads every pending key without waiting; resizes become one `.resize`.
    /// What arrives between the bracketed-paste markers becomes one `.paste`, never keys (a
    /// paste longer than one read is kept until its end marker arrives).
    func readEvents() -> [TUIEvent] {
        var events: [TUIEvent] = []
        var resized = false
        var value: UInt32 = 0
        for _ in 0..<65_536 {
            let kind = cncurses_read_input(&value)
            if kind == CNCURSES_INPUT_NONE { break }
            if kind == CNCURSES_INPUT_CHAR {
                if pasted != nil {
                    addPasted(value)
                } else if let key = Key(characterCode: value) {
                    events.append(.key(key))
                }
            } else if Int32(value) == CNCURSES_KEY_RESIZE {
                resized = true
            } else if Int32(value) == CNCURSES_KEY_PASTE_START {
                if pasted == nil {
                    pasted = String.UnicodeScalarView()
                    pastedCount = 0
                }
            } else if Int32(value) == CNCURSES_KEY_PASTE_END {
                if let text = pasted { events.append(.paste(String(text))) }
                pasted = nil
            } else if pasted != nil {
                // Keys decoded inside a paste are pasted escape sequences: only Enter is text.
                if Int32(value) == CNCURSES_KEY_ENTER { addPasted(10) }
            } else if let key = Self.functionKey(Int32(value)) {
                events.append(.key(key))
            }
        }
        if resized { events.append(.resize(size)) }
        return events
    }

    /// `draw(_:full:)` shows `grid`: only the changed cells, or everything when `full` is
    /// true or the size changed.
    func draw(_ grid: Grid, full: Bool) {
        let window = cncurses_stdscr()
        let old = full || previous?.size != grid.size ? nil : previous
        if old == nil {
            werase(window)
            if full { cncurses_clear_screen() }
        }
        let width = grid.width
        var dirty = [Bool](repeating: false, count: width)
        for y in 0..<grid.height {
            for x in 0..<width { dirty[x] = old.map { $0[x, y] != grid[x, y] } ?? true }
            for x in 1..<max(1, width) where dirty[x] && grid[x, y].isContinuation { dirty[x - 1] = true }
            for x in 0..<width where dirty[x] {
                let cell = grid[x, y]
                if cell.isContinuation { continue }
                put(cell, x: x, y: y)
            }
        }
        if let cursor = grid.cursor {
            if !cursorVisible { curs_set(1) }
            cursorVisible = true
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else if cursorVisible {
            curs_set(0)
            cursorVisible = false
        }
        wrefresh(window)
        previous = grid
    }

    /// `end()` restores the terminal; safe to call more than once.
    /// Rings the terminal's bell (ncurses' `beep`: the audible bell, else a flash).
    func ringBell() {
        beep()
    }

    func end() {
        guard let screen else { return }
        cncurses_end()
        delscreen(screen)
        self.screen = nil
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        let paint = paints[cell.style.rawValue]
        scalars.removeAll(keepingCapacity: true)
        for scalar in cell.character.unicodeScalars { scalars.append(scalar.value) }
        _ = scalars.withUnsafeBufferPointer { buffer in
            cncurses_put_cell(Int32(y), Int32(x), buffer.baseAddress, Int32(buffer.count), paint.attributes, paint.pair)
        }
    }

    /// `addPasted(_:)` adds one pasted code point: line breaks and tabs are kept, other
    /// controls dropped, and nothing past `pasteLimit`.
    private func addPasted(_ code: UInt32) {
        guard var text = pasted, pastedCount < Self.pasteLimit else { return }
        pasted = nil
        pastedCount += 1
        switch code {
        case 10, 13: text.append("\n")
        case 9: text.append("\t")
        default:
            if let scalar = Unicode.Scalar(code), !DisplayText.isUnsafe(scalar) { text.append(scalar) }
        }
        pasted = text
    }

    private static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case CNCURSES_KEY_UP: .up
        case CNCURSES_KEY_DOWN: .down
        case CNCURSES_KEY_LEFT: .left
        case CNCURSES_KEY_RIGHT: .right
        case CNCURSES_KEY_HOME: .home
        case CNCURSES_KEY_END: .end
        case CNCURSES_KEY_PAGE_UP: .pageUp
        case CNCURSES_KEY_PAGE_DOWN: .pageDown
        case CNCURSES_KEY_INSERT: .insert
        case CNCURSES_KEY_DELETE: .delete
        case CNCURSES_KEY_BACKSPACE: .backspace
        case CNCURSES_KEY_ENTER: .enter
        case CNCURSES_KEY_BACK_TAB: .backTab
        case CNCURSES_KEY_F1..<(CNCURSES_KEY_F1 + 24): .function(Int(code - CNCURSES_KEY_F1) + 1)
        default: nil
        }
    }
}
