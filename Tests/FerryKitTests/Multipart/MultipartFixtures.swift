import Foundation
import Synchronization
@testable import FerryKit

/// `MultipartFixtures` holds the helpers the multipart tests share: temporary directories, files and full reads.
enum MultipartFixtures {
    /// `MultipartFixtures.boundary` is the fixed boundary of the hand-checked vectors.
    static let boundary = "Boundary+0123456789ABCDEF"

    /// `FixtureError` is a failure of the test scaffolding itself (not of the code under test).
    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    /// Returns a form with the fixed ``boundary``.
    static func form() throws -> MultipartFormData {
        try MultipartFormData(boundary: boundary)
    }

    /// Creates a new, empty directory for one test; the caller removes it.
    static func makeTemporaryDirectory(_ function: String = #function) throws -> URL {
        let name = "ferry-multipart-\(function.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    /// Writes `data` to a new file `name` in `directory` and returns its URL.
    @discardableResult
    static func makeFile(_ name: String, in directory: URL, contents data: Data) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url, options: .withoutOverwriting)
        return url
    }

    /// Deterministic bytes covering every byte value (CR, LF, `-` and NUL included).
    static func patternBytes(count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) })
    }

    /// Reads `stream` to its end in reads of at most `chunk` bytes.
    static func readAll(_ stream: any BodyStream, chunk: Int) throws(FerryError) -> Data {
        var result = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { return result }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Reads up to `limit` bytes of `stream` in reads of at most `chunk` bytes.
    static func read(_ stream: any BodyStream, upTo limit: Int, chunk: Int) throws(FerryError) -> Data {
        var result = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while result.count < limit {
            let wanted = min(chunk, limit - result.count)
            let count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
            if count == 0 { break }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return result
    }

    /// Reads `stream` in `chunk`-byte reads until it throws, returning the bytes produced before and the error.
    static func readUntilError(_ stream: any BodyStream, chunk: Int) -> (bytes: Int64, error: FerryError?) {
        var total: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        do throws(FerryError) {
            while true {
                let count = try stream.read(into: buffer)
                if count == 0 { return (total, nil) }
                total += Int64(count)
            }
        } catch {
            return (total, error)
        }
    }

    /// Appends `data` to the end of the file at `url` (the file grows).
    static func append(_ data: Data, toFileAt url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    /// Cuts the file at `url` down to `length` bytes (the file shrinks).
    static func truncate(fileAt url: URL, to length: Int64) throws {
        guard Glibc.truncate(url.path, off_t(length)) == 0 else {
            throw FixtureError(description: "truncate \(url.path): errno \(errno)")
        }
    }

    /// `CallCounter` counts calls from `@Sendable` closures, such as stream factories.
    final class CallCounter: Sendable {
        private let count = Mutex(0)

        /// Adds one call.
        func increment() {
            count.withLock { $0 += 1 }
        }

        /// The number of calls so far.
        var value: Int {
            count.withLock { $0 }
        }
    }

    /// `FixedStream` is a ``BodyStream`` whose declared length and produced bytes can disagree, for error tests.
    final class FixedStream: BodyStream {
        private let bytes: Data
        private var offset = 0
        let contentLength: Int64

        /// Creates a stream that produces `bytes` but declares `declaredLength`.
        init(_ bytes: Data, declaredLength: Int64? = nil) {
            self.bytes = bytes
            contentLength = declaredLength ?? Int64(bytes.count)
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }

        func rewind() throws(FerryError) {
            offset = 0
        }

        func close() {}
    }
}
