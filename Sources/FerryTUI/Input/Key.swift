/// `Key` is one key press, decoded from the terminal.
public enum Key: Sendable, Hashable {
    /// `character`: a printable character, including space and pasted text typed one character at a time.
    case character(Character)
    /// Ctrl with a letter, stored lower-case (`.control("l")` is Ctrl-L).
    case control(Character)
    /// `up`: arrow up.
    case up
    /// `down`: arrow down.
    case down
    /// `left`: arrow left.
    case left
    /// `right`: arrow right.
    case right
    /// `home`: home.
    case home
    /// `end`: end.
    case end
    /// `pageUp`: page up.
    case pageUp
    /// `pageDown`: page down.
    case pageDown
    /// `insert`: insert.
    case insert
    /// `delete`: delete (forward delete).
    case delete
    /// `backspace`: backspace.
    case backspace
    /// `enter`: enter or Return.
    case enter
    /// `tab`: tab.
    case tab
    /// `backTab`: shift-Tab.
    case backTab
    /// `escape`: escape.
    case escape
    /// A function key, F1 is `.function(1)`.
    case function(Int)
    /// `paste` stands for a bracketed paste in the key maps: the pasted text itself arrives as
    /// `TUIEvent.paste`, never as keys.
    case paste

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
        case .paste: "Paste"
        }
    }
}
