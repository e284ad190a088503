import Foundation

/// `HTTPHeaders` is an ordered list of header fields with case-insensitive lookup.
///
/// Order is kept as added, and the same name may appear more than once. Values are
/// validated by ``HTTPHeaders/validate(name:value:)`` before a request is sent.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// `Field` is one header line: a name and a value.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field] = []

    public init() {}

    public init(_ fields: [Field]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    /// The first value for `name` (case-insensitive); setting replaces every field of that name,
    /// and setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
                fields[index].value = newValue
                fields = fields.enumerated().filter { $0.offset == index || !$0.element.name.caseInsensitiveEquals(name) }.map(\.element)
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Makes room for `count` fields, so that adding them does not grow the storage again.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Names whose values are secrets: never printed, logged or shown (``URLMasking/secretHeaderNames``;
    /// names containing one of ``URLMasking/secretHeaderNameFragments`` are secrets too).
    public static var secretNames: Set<String> { URLMasking.secretHeaderNames }

    /// Whether `name` is a header whose value is a secret (``URLMasking/isSecretHeader(_:)``):
    /// never shown, and sent only to the ``Origin`` it was given for.
    public static func isSecret(_ name: String) -> Bool {
        URLMasking.isSecretHeader(name)
    }

    /// The fields with secret values replaced by `***`, for display.
    public var masked: HTTPHeaders {
        HTTPHeaders(fields.map { Self.isSecret($0.name) ? Field(name: $0.name, value: "***") : $0 })
    }

    /// Checks that `name` is an HTTP token and that `value` has no control character other
    /// than tab (CR and LF would inject headers, ESC and the like reach terminals and logs).
    public static func validate(name: String, value: String) throws(FerryError) {
        let tokenExtras: Set<Character> = ["!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~"]
        let nameIsToken = !name.isEmpty && name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || tokenExtras.contains($0) }
        guard nameIsToken else { throw .input(.invalidHeader("header name \"\(name.printable)\" is not a valid token")) }
        if value.unicodeScalars.contains(where: { $0 != "\t" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }) {
            throw .input(.invalidHeader("header \(name) contains a line break or another control character"))
        }
    }

    /// Parses `K: V` as given on a command line or in a batch file.
    public static func parseLine(_ line: String) throws(FerryError) -> Field {
        guard let colon = line.firstIndex(of: ":") else {
            throw .input(.invalidHeader("header \"\(line.printable)\" has no ':' (expected 'Name: value')"))
        }
        let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        try validate(name: name, value: value)
        return Field(name: name, value: value)
    }
}

extension String {
    /// Whether the two are equal as HTTP field names: ASCII letters compare ignoring case,
    /// every other byte as it is (names are ASCII tokens; RFC 9110 folds only ASCII case).
    /// Byte by byte with no copy: a lookup runs for every header of every response.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let mine = utf8, theirs = other.utf8
        guard mine.count == theirs.count else { return false }
        // On the strings' own bytes when they have them in one piece (native strings do),
        // else through the views' iterators.
        let direct = mine.withContiguousStorageIfAvailable { a in
            theirs.withContiguousStorageIfAvailable { b in
                for index in a.indices where !Self.namesMatch(a[index], b[index]) { return false }
                return true
            }
        }
        if let direct, let result = direct { return result }
        return mine.elementsEqual(theirs, by: Self.namesMatch)
    }

    /// Whether two bytes of field names match: equal, or the same ASCII letter in either case.
    private static func namesMatch(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20))
    }

    /// The string with control characters shown as `\u{..}` escapes, for error messages.
    var printable: String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
