/// `TaskID` identifies a task in the journal; ids are never reused, even after removal.
public struct TaskID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// `rawValue` is the journal's row id.
    public let rawValue: Int64

    /// `init(rawValue:)` wraps a journal row id.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// `init(_:)` wraps a journal row id.
    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// `description` is the decimal id, as the user types it (`ferry pause 12`).
    public var description: String { String(rawValue) }

    /// `<` orders ids by creation: a later task has a larger id.
    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }
}
