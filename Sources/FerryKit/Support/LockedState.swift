import Foundation

/// `LockedState` is a value behind one lock, for state that holds non-`Sendable` parts (an
/// open file) and is used from several threads, one at a time.
///
/// `@unchecked Sendable`: `value` is only touched inside `withLock`, by whichever thread holds `lock`.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
