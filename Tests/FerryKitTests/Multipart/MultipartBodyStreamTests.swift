import Foundation
import Testing
@testable import FerryKit

@Suite("Multipart: body stream")
struct MultipartBodyStreamTests {
    /// A form mixing every kind of part, with a file on disk larger than a 4 KiB read.
    private static func mixedForm(in directory: URL) throws -> (form: MultipartFormData, file: Data, blob: Data) {
        let file = MultipartFixtures.patternBytes(count: 100_003, seed: 7)
        let blob = MultipartFixtures.patternBytes(count: 5_000, seed: 99)
        let url = try MultipartFixtures.makeFile("data.bin", in: directory, contents: file)
        let empty = try MultipartFixtures.makeFile("empty.txt", in: directory, contents: Data())
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "first value", name: "field")
        try form.appendPart(fileURL: url, name: "file")
        try form.appendPart(fileURL: empty, name: "empty")
        try form.appendPart(fileData: Data(), name: "nothing", fileName: "none.bin", mimeType: "application/octet-stream")
        try form.appendPart(name: "stream", fileName: "blob.bin", mimeType: "application/x-blob", length: Int64(blob.count)) { DataBodyStream(blob) }
        try form.appendPart(value: "last", name: "tail")
        return (form, file, blob)
    }

    /// The body of ``mixedForm(in:)``, assembled independently of the stream code.
    private static func expectedMixedBody(file: Data, blob: Data) -> Data {
        let separator = "\r\n--Boundary+0123456789ABCDEF\r\n"
        var body = Data("--Boundary+0123456789ABCDEF\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nfirst value".utf8)
        body += Data((separator + "Content-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").utf8)
        body += file
        body += Data((separator + "Content-Disposition: form-data; name=\"empty\"; filename=\"empty.txt\"\r\nContent-Type: text/plain\r\n\r\n").utf8)
        body += Data((separator + "Content-Disposition: form-data; name=\"nothing\"; filename=\"none.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n").utf8)
        body += Data((separator + "Content-Disposition: form-data; name=\"stream\"; filename=\"blob.bin\"\r\nContent-Type: application/x-blob\r\n\r\n").utf8)
        body += blob
        body += Data((separator + "Content-Disposition: form-data; name=\"tail\"\r\n\r\nlast\r\n--Boundary+0123456789ABCDEF--\r\n").utf8)
        return body
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func sameBytesWhateverTheReadSize(chunk: Int) throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a form with every kind of part
        let (form, file, blob) = try Self.mixedForm(in: directory)

        // When it is read `chunk` bytes at a time
        let stream = try form.makeBodyStream()
        let declared = stream.contentLength
        let body = try MultipartFixtures.readAll(stream, chunk: chunk)

        // Then the bytes are the expected ones and their count was known before the first read
        #expect(body == Self.expectedMixedBody(file: file, blob: blob))
        #expect(declared == Int64(body.count))
        #expect(form.contentLength == declared)
        #expect(stream.bytesRead == declared)
    }

    @Test func readsAfterTheEndReturnZero() throws {
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")
        let stream = try form.makeBodyStream()
        _ = try MultipartFixtures.readAll(stream, chunk: 64)

        var byte: UInt8 = 0
        let count = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(FerryError) -> Int in try stream.read(into: buffer) }
        #expect(count == 0)
    }

    @Test(arguments: [1, 7, 1000, 100_500])
    func rewindMidStreamGivesTheSameBytes(stopAfter: Int) throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a stream read part of the way (inside a boundary, the headers or the file body)
        let (form, file, blob) = try Self.mixedForm(in: directory)
        let stream = try form.makeBodyStream()
        let prefix = try MultipartFixtures.read(stream, upTo: stopAfter, chunk: 7)
        #expect(prefix.count == stopAfter)

        // When it is rewound and read again
        try stream.rewind()
        let body = try MultipartFixtures.readAll(stream, chunk: 4096)

        // Then the whole body comes again from the first byte
        #expect(body == Self.expectedMixedBody(file: file, blob: blob))
        #expect(body.prefix(stopAfter) == prefix)
    }

    @Test func rewindAfterTheEndAndReopenedStreams() throws {
        // Given a stream part whose factory counts its calls
        let calls = MultipartFixtures.CallCounter()
        var form = try MultipartFixtures.form()
        try form.appendPart(name: "s", fileName: "s.txt", mimeType: "text/plain", length: 3) {
            calls.increment()
            return DataBodyStream(Data("abc".utf8))
        }
        let stream = try form.makeBodyStream()
        #expect(calls.value == 0)

        // When it is read to the end, rewound and read again
        let first = try MultipartFixtures.readAll(stream, chunk: 2)
        try stream.rewind()
        let second = try MultipartFixtures.readAll(stream, chunk: 2)

        // Then the part's stream was made anew for the second pass and the bytes are the same
        #expect(second == first)
        #expect(calls.value == 2)
    }

    @Test func readAfterCloseFailsAndRewindAfterCloseFails() throws {
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")
        let stream = try form.makeBodyStream()
        stream.close()

        #expect(MultipartFixtures.readUntilError(stream, chunk: 8).error == .upload(.readFailed("the multipart body stream is closed")))
        #expect(throws: FerryError.upload(.cannotRewind)) { try stream.rewind() }
    }

    @Test func emptyBufferReadsNothing() throws {
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "v", name: "k")
        let stream = try form.makeBodyStream()
        let count = try stream.read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        #expect(count == 0)
        #expect(try MultipartFixtures.readAll(stream, chunk: 16).count == Int(stream.contentLength))
    }

    // MARK: Length mismatches: never padded or truncated

    @Test func fileThatGrewAfterAppendFailsBeforeAnyByte() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a file appended at 10 bytes that then grows to 15
        let url = try MultipartFixtures.makeFile("grow.bin", in: directory, contents: Data(count: 10))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "f")
        try MultipartFixtures.append(Data(count: 5), toFileAt: url)

        // Then making the body stream fails, naming both sizes
        #expect(throws: FerryError.upload(.fileChanged(path: url.path, expected: 10, actual: 15))) {
            _ = try form.makeBodyStream()
        }
    }

    @Test func fileThatGrewBeforeItsPartIsReachedFailsTheRead() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a stream made while the file had 10 bytes, which then grows
        let url = try MultipartFixtures.makeFile("grow.bin", in: directory, contents: Data(count: 10))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "f")
        let stream = try form.makeBodyStream()
        try MultipartFixtures.append(Data(count: 5), toFileAt: url)

        // When it is read one byte at a time
        let (produced, error) = MultipartFixtures.readUntilError(stream, chunk: 1)

        // Then the read fails when the file is opened: only the boundary and headers were produced
        #expect(error == .upload(.fileChanged(path: url.path, expected: 10, actual: 15)))
        #expect(produced == stream.contentLength - 10 - 33)
    }

    @Test func fileThatGrowsWhileBeingReadFailsTheRead() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a stream that has sent part of a 1000-byte file
        let url = try MultipartFixtures.makeFile("grow.bin", in: directory, contents: MultipartFixtures.patternBytes(count: 1000))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "f")
        let stream = try form.makeBodyStream()
        let sent = try MultipartFixtures.read(stream, upTo: 200, chunk: 50)
        #expect(sent.count == 200)

        // When the file grows and reading goes on
        try MultipartFixtures.append(Data(count: 24), toFileAt: url)
        let (produced, error) = MultipartFixtures.readUntilError(stream, chunk: 50)

        // Then the upload fails instead of sending 1000 bytes of a 1024-byte file as complete
        #expect(error == .upload(.fileChanged(path: url.path, expected: 1000, actual: 1024)))
        #expect(200 + produced < stream.contentLength)
    }

    @Test func fileThatShrinksWhileBeingReadFailsTheRead() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a stream that has sent part of a 1000-byte file
        let url = try MultipartFixtures.makeFile("shrink.bin", in: directory, contents: MultipartFixtures.patternBytes(count: 1000))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "f")
        try form.appendPart(value: "after", name: "g")
        let stream = try form.makeBodyStream()
        _ = try MultipartFixtures.read(stream, upTo: 200, chunk: 50)

        // When the file is cut to 300 bytes and reading goes on
        try MultipartFixtures.truncate(fileAt: url, to: 300)
        let (produced, error) = MultipartFixtures.readUntilError(stream, chunk: 50)

        // Then the upload fails; the missing bytes are not padded
        #expect(error == .upload(.fileChanged(path: url.path, expected: 1000, actual: 300)))
        #expect(200 + produced < stream.contentLength)
    }

    @Test func failureRepeatsUntilRewind() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a stream that failed because its file grew
        let url = try MultipartFixtures.makeFile("f.bin", in: directory, contents: Data(count: 10))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "f")
        let stream = try form.makeBodyStream()
        try MultipartFixtures.append(Data(count: 1), toFileAt: url)
        let failure = MultipartFixtures.readUntilError(stream, chunk: 64).error
        #expect(failure != nil)

        // Then the next read fails the same way, even after the file is restored
        try MultipartFixtures.truncate(fileAt: url, to: 10)
        #expect(MultipartFixtures.readUntilError(stream, chunk: 64).error == failure)

        // And after a rewind the restored file is sent
        try stream.rewind()
        #expect(try MultipartFixtures.readAll(stream, chunk: 64).count == Int(stream.contentLength))
    }

    @Test func streamShorterThanDeclaredFails() throws {
        // Given a stream part declared as 10 bytes whose stream says 10 but produces 6
        var form = try MultipartFixtures.form()
        try form.appendPart(name: "s", fileName: "s.bin", mimeType: "application/octet-stream", length: 10) {
            MultipartFixtures.FixedStream(Data("abcdef".utf8), declaredLength: 10)
        }

        // When read
        let stream = try form.makeBodyStream()
        let (produced, error) = MultipartFixtures.readUntilError(stream, chunk: 3)

        // Then the read fails instead of padding
        #expect(error == .upload(.readFailed("part 1 of the form: its body has 6 bytes, but 10 were declared")))
        #expect(produced < stream.contentLength)
    }

    @Test func streamLongerThanDeclaredFails() throws {
        // Given a stream part declared as 4 bytes whose stream says 4 but produces 6
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "x", name: "before")
        try form.appendPart(name: "s", fileName: "s.bin", mimeType: "application/octet-stream", length: 4) {
            MultipartFixtures.FixedStream(Data("abcdef".utf8), declaredLength: 4)
        }

        // When read
        let (_, error) = MultipartFixtures.readUntilError(try form.makeBodyStream(), chunk: 4096)

        // Then the read fails instead of truncating
        #expect(error == .upload(.readFailed("part 2 of the form: its body has at least 5 bytes, but 4 were declared")))
    }

    @Test func streamWhoseLengthDisagreesFailsWhenOpened() throws {
        // Given a stream part declared as 4 bytes whose stream announces 6
        var form = try MultipartFixtures.form()
        try form.appendPart(headers: ["Content-Disposition": "form-data; name=\"s\""], length: 4) {
            MultipartFixtures.FixedStream(Data("abcdef".utf8))
        }

        // Then reading fails before any body byte
        let (_, error) = MultipartFixtures.readUntilError(try form.makeBodyStream(), chunk: 1)
        #expect(error == .upload(.readFailed("part 1 of the form: its body has 6 bytes, but 4 were declared")))
    }

    @Test func errorsOfAPartStreamSurfaceUnchanged() throws {
        // Given a stream factory that fails
        var form = try MultipartFixtures.form()
        try form.appendPart(headers: ["Content-Disposition": "form-data; name=\"s\""], length: 1) { () throws(FerryError) -> any BodyStream in
            throw .upload(.readFailed("source unavailable"))
        }

        // Then the same error is thrown by the read
        #expect(MultipartFixtures.readUntilError(try form.makeBodyStream(), chunk: 64).error == .upload(.readFailed("source unavailable")))
    }

    @Test func fileRemovedAfterAppendIsAnErrorWhenTheStreamIsMade() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let url = try MultipartFixtures.makeFile("gone.txt", in: directory, contents: Data("x".utf8))
        var form = try MultipartFixtures.form()
        try form.appendPart(fileURL: url, name: "f")
        try FileManager.default.removeItem(at: url)

        #expect(throws: FerryError.input(.missingFile(url.path))) { _ = try form.makeBodyStream() }
    }

    // MARK: Throttling

    @Test func throttleLimitsPacketsAndSleepsBetweenThem() throws {
        // Given a body of 13 packets of 16 bytes, 5 ms apart, with a recording sleep
        var form = try MultipartFixtures.form()
        try form.appendPart(value: String(repeating: "z", count: 102), name: "k")
        form.throttle(bytesPerPacket: 16, delay: .milliseconds(5))
        #expect(form.contentLength == 13 * 16)
        var sleeps: [Duration] = []
        let stream = MultipartBodyStream(parts: form.parts, boundary: form.boundary, throttle: form.throttle) { sleeps.append($0) }

        // When it is read with a large buffer
        var sizes: [Int] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            sizes.append(count)
        }

        // Then no read returned more than a packet, and each packet after the first waited the delay
        // (the read that reports the end does not wait)
        #expect(sizes == Array(repeating: 16, count: 13))
        #expect(Int64(sizes.reduce(0, +)) == form.contentLength)
        #expect(sleeps == Array(repeating: .milliseconds(5), count: sizes.count - 1))
        #expect(try form.makeBodyStream().throttle == MultipartBodyStream.Throttle(bytesPerPacket: 16, delay: .milliseconds(5)))
    }

    @Test func throttleClampsItsArguments() {
        let throttle = MultipartBodyStream.Throttle(bytesPerPacket: 0, delay: .seconds(-1))
        #expect(throttle.bytesPerPacket == 1)
        #expect(throttle.delay == .zero)
        #expect(MultipartBodyStream.Throttle.slowNetwork == MultipartBodyStream.Throttle(bytesPerPacket: 16_384, delay: .milliseconds(200)))
    }

    @Test func blockingSleepWaits() {
        let clock = ContinuousClock()
        let start = clock.now
        MultipartBodyStream.blockingSleep(.milliseconds(20))
        #expect(clock.now - start >= .milliseconds(20))
    }

    // MARK: Size

    @Test func twoHundredMebibyteFileStreamsIn64KiBReads() throws {
        let directory = try MultipartFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Given a 200 MiB sparse file
        let size: Int64 = 200 << 20
        let url = directory.appendingPathComponent("big.bin")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(size)) == 0)
        close(descriptor)
        var form = try MultipartFixtures.form()
        try form.appendPart(value: "big", name: "name")
        try form.appendPart(fileURL: url, name: "file")

        // When the body is streamed in 64 KiB reads, keeping only a count and the last bytes
        let stream = try form.makeBodyStream()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        var tail = Data()
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            total += Int64(count)
            tail = (tail + Data(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))).suffix(64)
        }

        // Then every byte came through and the body ends with the final boundary
        #expect(total == stream.contentLength)
        #expect(total > size)
        #expect(tail.suffix(33) == Data("\r\n--Boundary+0123456789ABCDEF--\r\n".utf8))
    }
}
