extension Int {
    /// `init(decimal:)` reads ASCII digits (at most 9, so no overflow); `nil` for anything else
    /// or nothing. For a port in a URL and a status code in a status line, read off the bytes.
    init?(decimal digits: some Collection<UInt8>) {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            value = value * 10 + Int(digit - 0x30)
        }
        self = value
    }
}
