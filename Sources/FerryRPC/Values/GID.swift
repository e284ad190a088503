import FerryQueue

/// `GID` is aria2's name for a download: 16 hex digits. Ferry's is the task id, zero-padded
/// hexadecimal (task 26 is `000000000000001a`), so the mapping needs no table and survives
/// restarts.
public enum GID {
    /// `string(for:)` is the GID of a task.
    public static func string(for id: TaskID) -> String {
        let hex = String(UInt64(bitPattern: id.rawValue), radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// `taskID(_:)` reads a GID (exactly 16 hex digits, either case); `nil` for anything else.
    public static func taskID(_ text: String) -> TaskID? {
        guard text.utf8.count == 16, text.allSatisfy(\.isHexDigit), let value = UInt64(text, radix: 16), value > 0, value <= UInt64(Int64.max) else {
            return nil
        }
        return TaskID(Int64(value))
    }
}
