extension UnsafeRawBufferPointer {
    /// `trimming(_:)` is the buffer without the leading and trailing bytes that match `isTrimmed`.
    func trimming(_ isTrimmed: (UInt8) -> Bool) -> Slice<UnsafeRawBufferPointer> {
        self[...].trimming(isTrimmed)
    }
}

extension Slice where Base == UnsafeRawBufferPointer {
    /// `trimming(_:)` is the slice without the leading and trailing bytes that match `isTrimmed`.
    func trimming(_ isTrimmed: (UInt8) -> Bool) -> Slice<UnsafeRawBufferPointer> {
        var start = startIndex
        var end = endIndex
        while start < end, isTrimmed(self[start]) { start += 1 }
        while end > start, isTrimmed(self[end - 1]) { end -= 1 }
        return Slice(base: base, bounds: start..<end)
    }
}
