/// `ByteFormatting` writes sizes, speeds, durations and percentages the one way the command
/// line and the terminal UI both show them: binary units, no locale, short enough for a
/// table column (`"999 B"`, `"1.5 MiB"`, `"15 MiB/s"`, `"59s"`, `"1m05s"`, `"42%"`).
package enum ByteFormatting {
    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// `size(_:)` formats a byte count in at most 8 columns: one decimal below 10 units
    /// (`"1.5 KiB"`), none above (`"10 KiB"`); negative counts show as `"0 B"`.
    public static func size(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return "\(max(0, bytes)) B" }
        var value = Double(bytes)
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

    /// `speed(_:)` formats a rate in bytes per second, for example `"1.5 MiB/s"`; a rate
    /// that is not finite or below zero shows as `"0 B/s"`.
    public static func speed(_ bytesPerSecond: Double) -> String {
        let rate = bytesPerSecond.isFinite ? max(0, bytesPerSecond) : 0
        return size(rate >= Double(Int64.max) ? Int64.max : Int64(rate)) + "/s"
    }

    /// `duration(_:)` formats seconds (rounded up) in at most 6 columns: `"59s"`, `"1m05s"`,
    /// `"2h03m"`, `"3d04h"`, and `"99d+"` beyond 99 days; `"--"` when unknown (`nil`, not
    /// finite or negative).
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "--" }
        let s = seconds >= Double(100 * 86_400) ? 100 * 86_400 : Int(seconds.rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" + twoDigits(s % 60) + "s" }
        if s < 86_400 { return "\(s / 3600)h" + twoDigits(s / 60 % 60) + "m" }
        if s < 100 * 86_400 { return "\(s / 86_400)d" + twoDigits(s / 3600 % 24) + "h" }
        return "99d+"
    }

    /// `percent(_:)` formats a fraction in `0...1` as a whole percentage, rounded down so
    /// that `"100%"` means complete.
    public static func percent(_ fraction: Double) -> String {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        return "\(Int((clamped * 100).rounded(.down)))%"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
