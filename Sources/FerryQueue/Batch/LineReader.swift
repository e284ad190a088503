import Glibc

/// `LineReader` splits an `InputSource` into numbered lines without holding more than one
/// line (plus one chunk) in memory.
///
/// Lines end with LF; a CR before the LF is dropped, so CRLF files read the same. A line
/// longer than `maximumLength` is returned as `.tooLong` and its bytes are discarded.
final class LineReader {
    /// `Line` is one line of input, numbered from 1.
    enum Line {
        /// `text` holds the line's bytes without the line ending.
        case text(number: Int, bytes: ArraySlice<UInt8>)
        /// `tooLong` replaces a line longer than `maximumLength`; `firstByte` is its first byte.
        case tooLong(number: Int, firstByte: UInt8)
    }

    let maximumLength: Int
    private let source: InputSource
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var lineNumber = 0
    private var endOfInput = false
    /// `discarded` holds the first byte of an overlong line while its bytes are dropped.
    private var discarded: UInt8?
    private let chunk: UnsafeMutableRawBufferPointer

    init(source: InputSource, maximumLength: Int) {
        self.source = source
        self.maximumLength = maximumLength
        buffer.reserveCapacity(InputSource.chunkSize * 2)
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: InputSource.chunkSize, alignment: 1)
    }

    deinit {
        chunk.deallocate()
    }

    /// `next()` returns the next line, or `nil` at the end of the input.
    func next() throws(QueueError) -> Line? {
        while true {
            if let newline = findNewline() {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let bytes = buffer[start..<end]
                start = newline + 1
                scanned = start
                lineNumber += 1
                if let firstByte = discarded ?? (bytes.count > maximumLength ? bytes.first : nil) {
                    discarded = nil
                    return .tooLong(number: lineNumber, firstByte: firstByte)
                }
                return .text(number: lineNumber, bytes: bytes)
            }
            if buffer.count - start > maximumLength {
                // Keep counting the line but drop its bytes.
                discarded = discarded ?? buffer[start]
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            }
            if endOfInput {
                guard start < buffer.count || discarded != nil else { return nil }
                lineNumber += 1
                let bytes = buffer[start...]
                start = buffer.count
                scanned = start
                if let firstByte = discarded ?? (bytes.count > maximumLength ? bytes.first : nil) {
                    discarded = nil
                    return .tooLong(number: lineNumber, firstByte: firstByte)
                }
                var last = bytes
                if last.last == 0x0D { last = last.dropLast() }
                return .text(number: lineNumber, bytes: last)
            }
            try fill()
        }
    }

    private func findNewline() -> Int? {
        guard scanned < buffer.count else { return nil }
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress,
                  let hit = memchr(base + scanned, 0x0A, bytes.count - scanned) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        scanned = found ?? buffer.count
        return found
    }

    private func fill() throws(QueueError) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        let count = try source.read(into: chunk)
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        endOfInput = count == 0
    }
}
