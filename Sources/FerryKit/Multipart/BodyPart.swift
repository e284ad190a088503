import Foundation

/// `BodyPart` reads one ``FormPart`` of a multipart body, phase by phase, in any buffer size.
///
/// The phases are the encapsulation boundary (`--B` CRLF for the first part, CRLF `--B` CRLF
/// after), the header block, the body, and, for the last part only, the final boundary
/// (CRLF `--B--` CRLF). The reader keeps its phase and the offset within it, so each read
/// continues exactly where the previous one stopped, one byte at a time if need be.
///
/// The body's stream is opened when the body phase starts and closed when it ends, so a body
/// stream of many file parts holds at most one file open. A body that turns out shorter or
/// longer than ``FormPart/bodyLength`` fails the read: for a file that is
/// ``UploadReason/fileChanged(path:expected:actual:)``; nothing is ever padded or truncated.
///
/// Not thread-safe: used by one thread at a time (the engine's), like every ``BodyStream``.
final class BodyPart: BodyStream {
    /// `Phase` is where the reader stands within the part.
    enum Phase: Equatable {
        case encapsulationBoundary
        case headers
        case body
        case finalBoundary
        case finished
    }

    /// `part` is the part being read.
    let part: FormPart
    /// `index` is the part's position in the form, counted from 0, for error messages.
    let index: Int
    /// `contentLength` is the exact number of bytes this part produces, boundaries included.
    let contentLength: Int64
    /// `phase` is the phase the next read starts in.
    private(set) var phase: Phase = .encapsulationBoundary

    private let encapsulationBoundary: [UInt8]
    private let finalBoundary: [UInt8]
    private var phaseOffset: Int64 = 0
    private var bodyStream: (any BodyStream)?
    private var isClosed = false

    /// `init(part:index:boundary:isFirst:isLast:)` creates a reader for `part`; `isFirst` and `isLast` choose the boundaries around it.
    init(part: FormPart, index: Int, boundary: String, isFirst: Bool, isLast: Bool) {
        self.part = part
        self.index = index
        encapsulationBoundary = Array((isFirst ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n").utf8)
        finalBoundary = isLast ? Array("\r\n--\(boundary)--\r\n".utf8) : []
        contentLength = Int64(encapsulationBoundary.count + part.headerBlock.count + finalBoundary.count) + part.bodyLength
    }

    deinit {
        bodyStream?.close()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard !isClosed else { throw .upload(.readFailed("\(label) is closed")) }
        var filled = 0
        while filled < buffer.count {
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            switch phase {
            case .encapsulationBoundary: filled += copy(encapsulationBoundary, into: target, next: .headers)
            case .headers: filled += copy(part.headerBlock, into: target, next: .body)
            case .body: filled += try readBody(into: target)
            case .finalBoundary: filled += copy(finalBoundary, into: target, next: .finished)
            case .finished: return filled
            }
        }
        return filled
    }

    /// `rewind()` goes back to the first byte of the part; the body is opened anew when it is reached.
    func rewind() throws(FerryError) {
        guard !isClosed else { throw .upload(.cannotRewind) }
        closeBody()
        phase = .encapsulationBoundary
        phaseOffset = 0
    }

    /// `seek(to:)` goes to byte `position` of the part (at most ``contentLength``): the phase
    /// and the offset in it are computed, and a body position seeks the body's own stream.
    func seek(to position: Int64) throws(FerryError) {
        guard !isClosed, position >= 0, position <= contentLength else { throw .upload(.cannotRewind) }
        closeBody()
        let boundaryEnd = Int64(encapsulationBoundary.count)
        let headersEnd = boundaryEnd + Int64(part.headerBlock.count)
        let bodyEnd = headersEnd + part.bodyLength
        if position < boundaryEnd {
            (phase, phaseOffset) = (.encapsulationBoundary, position)
        } else if position < headersEnd {
            (phase, phaseOffset) = (.headers, position - boundaryEnd)
        } else if position < bodyEnd {
            (phase, phaseOffset) = (.body, position - headersEnd)
            try openBody().seek(to: phaseOffset)
        } else if position < contentLength {
            (phase, phaseOffset) = (.finalBoundary, position - bodyEnd)
        } else {
            (phase, phaseOffset) = (.finished, 0)
        }
    }

    /// `skip()` marks the part as read (a resumed body starts after it), its body closed.
    func skip() {
        closeBody()
        (phase, phaseOffset) = (.finished, 0)
    }

    func close() {
        closeBody()
        isClosed = true
    }

    private var label: String {
        "part \(index + 1) of the form"
    }

    private func advance(to next: Phase) {
        phase = next
        phaseOffset = 0
    }

    /// `copy(_:into:next:)` copies what is left of `bytes` from the phase offset into `target`, moving to `next` at the end.
    private func copy(_ bytes: [UInt8], into target: UnsafeMutableRawBufferPointer, next: Phase) -> Int {
        let offset = Int(phaseOffset)
        let count = min(target.count, bytes.count - offset)
        if count > 0 {
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: target[0..<count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            phaseOffset += Int64(count)
        }
        if phaseOffset == Int64(bytes.count) { advance(to: next) }
        return count
    }

    private func readBody(into target: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let stream = try openBody()
        let remaining = part.bodyLength - phaseOffset
        guard remaining > 0 else {
            try checkEnd(of: stream)
            closeBody()
            advance(to: .finalBoundary)
            return 0
        }
        let wanted = Int(min(Int64(target.count), remaining))
        let count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: target[0..<wanted]))
        guard count > 0 else { throw lengthMismatch(actual: phaseOffset, atLeast: false) }
        guard count <= wanted else {
            throw .upload(.readFailed("\(label): its stream returned \(count) bytes for a \(wanted)-byte buffer"))
        }
        phaseOffset += Int64(count)
        return count
    }

    /// `openBody()` opens the body's stream when the body phase starts, checking its length against the declared one.
    private func openBody() throws(FerryError) -> any BodyStream {
        if let bodyStream { return bodyStream }
        let stream = try part.body.makeStream()
        guard stream.contentLength == part.bodyLength else {
            stream.close()
            throw lengthMismatch(actual: stream.contentLength, atLeast: false)
        }
        bodyStream = stream
        return stream
    }

    /// `checkEnd(of:)` checks that the stream has nothing after the declared length (a file that grew, a stream that lied).
    private func checkEnd(of stream: any BodyStream) throws(FerryError) {
        var scratch: UInt8 = 0
        let extra = try withUnsafeMutableBytes(of: &scratch) { (byte) throws(FerryError) -> Int in
            try stream.read(into: byte)
        }
        if extra > 0 { throw lengthMismatch(actual: part.bodyLength + Int64(extra), atLeast: true) }
    }

    private func lengthMismatch(actual: Int64, atLeast: Bool) -> FerryError {
        if let path = part.filePath {
            var info = stat()
            let now = stat(path, &info) == 0 ? Int64(info.st_size) : actual
            return .upload(.fileChanged(path: path, expected: part.bodyLength, actual: now))
        }
        let amount = atLeast ? "at least \(actual)" : "\(actual)"
        return .upload(.readFailed("\(label): its body has \(amount) bytes, but \(part.bodyLength) were declared"))
    }

    private func closeBody() {
        bodyStream?.close()
        bodyStream = nil
    }
}
