/// `ByteFormatting` writes sizes, speeds and durations the way the command line and the TUI show them.
public enum ByteFormatting {
    /// `size` in binary units: `512 B`, `1.5 KiB`, `64.0 MiB`, `1.00 GiB`.
    public static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        let digits = value < 10 ? 2 : (value < 100 ? 1 : 0)
        return "\(fixed(value, digits)) \(units[unit])"
    }

    /// A speed such as `12.3 MiB/s`.
    public static func speed(_ bytesPerSecond: Double) -> String {
        size(Int64(bytesPerSecond.isFinite ? max(0, bytesPerSecond) : 0)) + "/s"
    }

    /// A duration such as `0:07`, `12:34` or `3:02:01`; `--:--` when unknown.
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded(.up))
        let (h, m, s) = (total / 3600, (total / 60) % 60, total % 60)
        let twoDigits = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(twoDigits(m)):\(twoDigits(s))" : "\(m):\(twoDigits(s))"
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: text.index(after: dot), to: text.endIndex)
            if digits == 0 { text = String(text[..<dot]) } else if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        } else if digits > 0 {
            text += "." + String(repeating: "0", count: digits)
        }
        return text
    }
}
