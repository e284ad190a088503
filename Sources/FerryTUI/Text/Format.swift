/// `Format` turns sizes, rates and durations into short fixed-rule strings (binary units,
/// no locale): `"999 B"`, `"1.5 MiB"`, `"15 MiB/s"`, `"1m05s"`.
public enum Format {
    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// `bytes(_:)` formats a byte count in at most 8 columns; negative counts show as `"0 B"`.
    public static func bytes(_ count: Int64) -> String {
        guard count >= 1024 else { return "\(max(0, count)) B" }
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        if tenths < 100 {
            return "\(tenths / 10).\(tenths % 10) \(units[unit])"
        }
        return "\(Int(value)) \(units[unit])"
    }

    /// `speed(_:)` formats a rate in bytes per second, for example `"1.5 MiB/s"`.
    public static func speed(_ bytesPerSecond: Int64) -> String {
        bytes(bytesPerSecond) + "/s"
    }

    /// `duration(_:)` formats seconds in at most 6 columns: `"59s"`, `"1m05s"`, `"2h03m"`,
    /// `"3d04h"`, and `"99d+"` beyond 99 days.
    public static func duration(_ seconds: Int) -> String {
        let s = max(0, seconds)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" + twoDigits(s % 60) + "s" }
        if s < 86_400 { return "\(s / 3600)h" + twoDigits(s / 60 % 60) + "m" }
        if s < 100 * 86_400 { return "\(s / 86_400)d" + twoDigits(s / 3600 % 24) + "h" }
        return "99d+"
    }

    /// `percent(_:)` formats a fraction in `0...1` as a whole percentage, rounded down so
    /// that 100% means complete.
    public static func percent(_ fraction: Double) -> String {
        "\(Int((min(1, max(0, fraction)) * 100).rounded(.down)))%"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
