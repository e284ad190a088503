/// `TerminalColor` is one of the eight basic terminal colours, the set every colour
/// terminal supports. Raw values are the standard colour numbers (0 black ... 7 white).
public enum TerminalColor: Int, Sendable, Hashable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
}
