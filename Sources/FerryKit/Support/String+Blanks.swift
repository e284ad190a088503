extension String {
    /// `trimmingBlanks()` drops leading and trailing spaces and tabs (HTTP's optional white
    /// space). Works on the UTF-8 bytes: cheaper than `trimmingCharacters(in: .whitespaces)`,
    /// which matters for header values read for every response.
    public func trimmingBlanks() -> String {
        let bytes = utf8
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
              let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return self }
        return String(self[first...last])
    }
}
