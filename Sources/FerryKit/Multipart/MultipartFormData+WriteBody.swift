import Foundation

extension MultipartFormData {
    /// `writeBody(to:)` writes exactly the bytes a body stream of this form sends to a new file, and returns how many.
    ///
    /// The analogue of AFNetworking's `requestWithMultipartFormRequest:writingStreamContentsToFile:`,
    /// for servers or tools that want a file rather than a stream. The body is streamed through a
    /// fixed 256 KiB buffer, so memory stays flat whatever the size; the ``throttle`` is not applied.
    /// The file is created with `O_EXCL` and mode 0600 (the body may hold private files): an
    /// existing file or symbolic link at `url` is never overwritten or followed, and is reported
    /// as ``FileReason/alreadyExists(_:)``. If writing fails, the partial file is removed.
    @discardableResult
    public func writeBody(to url: URL) throws(FerryError) -> Int64 {
        guard url.isFileURL else { throw .input(.invalidOption("\(url.absoluteString) is not a file URL")) }
        let path = url.path
        try checkFilesUnchanged()
        let stream = MultipartBodyStream(parts: parts, boundary: boundary)
        defer { stream.close() }

        var descriptor = SystemCall.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .file(.from(errno: errno, path: path, operation: "create")) }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.writeBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var written: Int64 = 0
        do throws(FerryError) {
            while true {
                let count = try stream.read(into: buffer)
                if count == 0 { break }
                try Self.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: descriptor, path: path)
                written += Int64(count)
            }
            guard written == stream.contentLength else {
                throw .integrity(.lengthMismatch(expected: stream.contentLength, actual: written))
            }
            guard Glibc.close(descriptor) == 0 else {
                descriptor = -1
                throw .file(.from(errno: errno, path: path, operation: "close"))
            }
            descriptor = -1
        } catch {
            if descriptor >= 0 { Glibc.close(descriptor) }
            unlink(path)
            throw error
        }
        return written
    }

    /// `writeBufferSize` is the size of the buffer ``writeBody(to:)`` streams through: 256 KiB.
    static let writeBufferSize = 256 * 1024

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(FerryError) {
        if let code = SystemCall.writeAll(descriptor, bytes) {
            throw .file(.from(errno: code, path: path, operation: "write"))
        }
    }
}
