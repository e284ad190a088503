#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `TestSupportError` is what the test helpers throw: one sentence saying what failed.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    /// `description` says what failed and, for system calls, the `errno` text.
    public let description: String

    /// Creates an error with the given description.
    public init(_ description: String) {
        self.description = description
    }

    /// `TestSupportError.posix(_:code:)` names a failed system call and its error text.
    static func posix(_ what: String, code: Int32 = errno) -> TestSupportError {
        TestSupportError("\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
