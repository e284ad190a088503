import FerryKit

/// `HeaderField` is one request header (`Name: value`) of a task.
///
/// Secret headers (see `isSecret`) are stored in the journal as given, because the engine
/// must send them, but `masked` and `description` never show their value.
public struct HeaderField: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `name` is the field name as the user wrote it.
    public let name: String
    /// `value` is the field value, without leading or trailing blanks.
    public let value: String

    /// `secretNames` are header names whose values are always masked, lowercased: FerryKit's
    /// one rule, `URLMasking.secretHeaderNames` (credentials and session state).
    public static var secretNames: Set<String> { URLMasking.secretHeaderNames }

    /// `secretNameFragments` mask any header whose lowercased name contains one of them
    /// (`URLMasking.secretHeaderNameFragments`: `X-Auth-Token`, `X-Api-Key`, `X-Session-Id`...).
    public static var secretNameFragments: [String] { URLMasking.secretHeaderNameFragments }

    /// `maximumLength` is the longest header field a task takes, name and value, in bytes (16 KiB).
    public static let maximumLength = 16 * 1024

    /// `maximumCount` is the most headers one task takes (checked when the journal stores it).
    public static let maximumCount = 100

    /// `init(name:value:)` checks the name is an HTTP token, the value has no control
    /// characters other than tab (CR and LF would inject headers), and the field is at most
    /// `maximumLength` bytes.
    public init(name: String, value: String) throws(QueueError) {
        guard name.utf8.count + value.utf8.count <= HeaderField.maximumLength else {
            throw .input(.invalidHeader(detail: "'\(String(name.prefix(64)))' is longer than \(HeaderField.maximumLength) bytes"))
        }
        guard !name.isEmpty, name.utf8.allSatisfy(HeaderField.isTokenByte) else {
            throw .input(.invalidHeader(detail: "'\(String(name.prefix(64)))' is not a valid header name"))
        }
        let trimmed = value.trimmingBlanks()
        guard trimmed.unicodeScalars.allSatisfy({ $0 == "\t" || !HeaderField.isControl($0) }) else {
            throw .input(.invalidHeader(detail: "the value of '\(name)' contains control characters (CR, LF...)"))
        }
        self.name = name
        self.value = trimmed
    }

    /// `init(trusted:value:)` wraps a header validated earlier (read back from the journal).
    init(trusted name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `init(parsing:)` reads curl's and aria2's `Name: value` form.
    public init(parsing line: String) throws(QueueError) {
        guard let colon = line.firstIndex(of: ":") else {
            throw .input(.invalidHeader(detail: "expected 'Name: value'"))
        }
        try self.init(name: String(line[..<colon]).trimmingBlanks(),
                      value: String(line[line.index(after: colon)...]))
    }

    /// `isSecret` is true when the value must never be shown (see `secretNames` and
    /// `secretNameFragments`).
    public var isSecret: Bool {
        URLMasking.isSecretHeader(name)
    }

    /// `masked` is `Name: value` with the value replaced by `***` when `isSecret`.
    public var masked: String {
        isSecret ? "\(name): ***" : "\(name): \(value)"
    }

    /// `description` is `masked`, so printing a header never leaks a secret.
    public var description: String { masked }

    /// `debugDescription` is `masked` as well.
    public var debugDescription: String { masked }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
