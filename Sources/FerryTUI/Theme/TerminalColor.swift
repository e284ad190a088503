/// `TerminalColor` is one of the eight basic terminal colours, the set every colour
/// terminal supports.
public enum TerminalColor: Int, Sendable, Hashable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
}
