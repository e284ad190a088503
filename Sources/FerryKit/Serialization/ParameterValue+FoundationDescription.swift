import Foundation

extension ParameterValue {
    /// The text Foundation's `description` gives for the bridged object on Apple platforms,
    /// which is what AFNetworking writes into query strings and sorts sets by.
    ///
    /// Numbers follow `NSNumber`: integers in decimal, booleans as `1`/`0`, doubles with
    /// `%0.16g` (`1.0` is `1`, `0.1 + 0.2` is `0.3`). Data is `<68656c6c 6f>`, a date is
    /// `2001-01-01 00:00:00 +0000` and null is `<null>`. Containers are rendered only
    /// approximately (they are never written into a query string, only sorted).
    var foundationDescription: String {
        switch self {
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .double(let double): String(format: "%0.16g", double)
        case .bool(let bool): bool ? "1" : "0"
        case .null: "<null>"
        case .data(let data): Self.dataDescription(data)
        case .date(let date): Self.dateDescription(date)
        case .array(let elements):
            "(\n" + elements.map { "    " + $0.foundationDescription }.joined(separator: ",\n") + "\n)"
        case .set(let elements):
            "{(\n" + elements.map(\.foundationDescription).sorted(by: Self.precedes).map { "    " + $0 }.joined(separator: ",\n") + "\n)}"
        case .dictionary(let entries):
            "{\n" + entries.keys.sorted(by: Self.precedes).map { "    \($0) = \(entries[$0]?.foundationDescription ?? "");" }.joined(separator: "\n") + "\n}"
        }
    }

    /// Whether `lhs` sorts before `rhs` the way `-[NSString compare:]` orders them (by UTF-16 code units).
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    private static func dataDescription(_ data: Data) -> String {
        var text = "<"
        for (offset, byte) in data.enumerated() {
            if offset > 0, offset % 4 == 0 { text += " " }
            text += String(byte, radix: 16).leftPadded(to: 2)
        }
        return text + ">"
    }

    private static func dateDescription(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return String(date.timeIntervalSince1970) }
        let year = String(Int(parts.tm_year) + 1900).leftPadded(to: 4)
        let fields = [parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec].map { String($0).leftPadded(to: 2) }
        return "\(year)-\(fields[0])-\(fields[1]) \(fields[2]):\(fields[3]):\(fields[4]) +0000"
    }
}

extension String {
    /// The string with leading zeros added up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
