import FerryKit
import Foundation

/// `TransferURL` is a validated http or https URL of a task; its `description` is masked.
///
/// Validation accepts only the `http` and `https` schemes, requires a host, a port (if any)
/// in 1...65535, and rejects spaces, CR, LF and every other control character, and a URL
/// longer than `maximumLength` bytes.
public struct TransferURL: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `string` is the URL exactly as given, user info included; never print it directly.
    public let string: String

    /// `maximumLength` is the longest URL a task takes, in bytes (64 KiB): signed URLs are
    /// long, but not that long, and one task must not hold megabytes of journal and memory.
    public static let maximumLength = 64 * 1024

    /// `init(validating:)` checks `text` and keeps it unchanged.
    public init(validating text: String) throws(QueueError) {
        guard text.utf8.count <= TransferURL.maximumLength else {
            // Only the start is named: the error must not carry the whole text.
            throw .input(.invalidURL(TransferURL.mask(String(text.prefix(80))) + "...",
                                     detail: "longer than \(TransferURL.maximumLength) bytes (\(text.utf8.count))"))
        }
        func reject(_ detail: String) -> QueueError { .input(.invalidURL(TransferURL.mask(text), detail: detail)) }
        guard !text.isEmpty else { throw reject("empty") }
        // Bytes of plain printable ASCII need no look at their scalars.
        if text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }),
           text.unicodeScalars.contains(where: TransferURL.isForbidden) {
            throw reject("contains spaces or control characters (CR, LF, tab...)")
        }
        guard let components = URLComponents(string: text) else {
            throw reject("not a well-formed URL (non-ASCII characters must be percent-encoded)")
        }
        guard let scheme = components.scheme?.lowercased() else { throw reject("no scheme") }
        guard scheme == "http" || scheme == "https" else {
            throw reject("unsupported scheme '\(scheme)' (only http and https)")
        }
        guard let host = components.host, !host.isEmpty else { throw reject("no host") }
        if let port = components.port, !(1...65535).contains(port) {
            throw reject("port \(port) is out of range")
        }
        self.string = text
    }

    /// `isForbidden(_:)` is true for spaces (any Unicode white space) and control characters.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return scalar.value <= 0x20 || scalar.value == 0x7F
        }
        return HeaderField.isControl(scalar) || scalar.properties.isWhitespace
    }

    /// `init(trusted:)` wraps a string validated earlier (read back from the journal).
    init(trusted string: String) {
        self.string = string
    }

    /// `masked` is the URL with its user info (`user:password@`) replaced by `***@` and the
    /// values of secret query parameters (`token=`, `sig=`...) by `***` (`URLMasking`).
    public var masked: String { TransferURL.mask(string) }

    /// `description` is `masked`, so printing a URL never leaks a password.
    public var description: String { masked }

    /// `debugDescription` is `masked` as well.
    public var debugDescription: String { masked }

    /// `mask(_:)` masks any URL-like text, valid or not, with FerryKit's one rule
    /// (`URLMasking`): the whole user info and the values of secret query parameters.
    public static func mask(_ text: String) -> String {
        URLMasking.mask(text, hidingUser: true)
    }
}
