/// `Key` is one key press, decoded from the terminal.
public enum Key: Sendable, Hashable {
    /// A printable character, including space and pasted text typed one character at a time.
    case character(Character)
    /// Ctrl with a letter, stored lower-case (`.control("l")` is Ctrl-L).
    case control(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward delete).
    case delete
    /// Backspace.
    case backspace
    /// Enter or Return.
    case enter
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Escape.
    case escape
    /// A function key, F1 is `.function(1)`.
    case function(Int)

    /// `init(characterCode:)` decodes a character code read from the terminal: Tab, Enter,
    /// Escape, Backspace (DEL and Ctrl-H) and Ctrl-letters get their own keys; other C0 and
    /// C1 controls, surrogates and out-of-range codes give `nil`.
    public init?(characterCode code: UInt32) {
        switch code {
        case 9: self = .tab
        case 10, 13: self = .enter
        case 27: self = .escape
        case 8, 127: self = .backspace
        case 1...26:
            guard let scalar = Unicode.Scalar(code + 0x60) else { return nil }
            self = .control(Character(scalar))
        case 0..<32, 0x80..<0xA0:
            return nil
        default:
            guard let scalar = Unicode.Scalar(code), !DisplayText.isUnsafe(scalar) else { return nil }
            self = .character(Character(scalar))
        }
    }

    /// `displayName` is how key hints and the help screen name the key (`"↑"`, `"PgUp"`, `"^L"`, `"Space"`).
    public var displayName: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): DisplayText.sanitize(String(character))
        case .control(let character): "^" + String(character).uppercased()
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .insert: "Ins"
        case .delete: "Del"
        case .backspace: "Bksp"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .escape: "Esc"
        case .function(let number): "F\(number)"
        }
    }
}
