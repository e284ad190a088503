#if canImport(Glibc)
import Glibc
#endif

/// `invariant(_:_:)` stops the process with `message` when `condition` is false, so that
/// libFuzzer records the input as a crash.
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let text = Array("invariant broken: \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// `FileNameRule` is what every name Ferry may create a file under must satisfy.
public enum FileNameRule {
    /// `violation(of:)` names the rule `name` breaks, or `nil`: a safe name is not empty,
    /// not `.` or `..`, and has no `/`, `\`, NUL or control character.
    public static func violation(of name: String) -> String? {
        if name.isEmpty { return "empty" }
        if name == "." || name == ".." { return "a dot entry" }
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x2F: return "contains '/'"
            case 0x5C: return "contains '\\'"
            case 0x00: return "contains NUL"
            case 0x01..<0x20, 0x7F, 0x80...0x9F: return "contains control character U+\(String(scalar.value, radix: 16))"
            default: continue
            }
        }
        return nil
    }

    /// `shown(_:)` is `name`'s scalars in hex, for a message that must not reach a terminal raw.
    public static func shown(_ name: String) -> String {
        name.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    }
}
