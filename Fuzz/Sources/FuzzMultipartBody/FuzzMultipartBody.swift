import FerryKit
import Foundation
import FuzzSupport

/// Multipart bodies of every part layout (fields, in-memory files, header-only parts, files on
/// disk, streams), read with every sequence of read sizes: the stream yields exactly its
/// declared `contentLength`, the same bytes whatever the read sizes, again after a rewind;
/// a part whose stream is shorter or longer than declared fails the read instead.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipartBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let boundary = input.string(upTo: 80)
    var form = (try? MultipartFormData(boundary: boundary)) ?? (try? MultipartFormData(boundary: "Boundary+FUZZ")) ?? MultipartFormData()
    var consistent = true
    for index in 0..<Int(input.byte() % 7) {
        let kind = input.byte() % 5
        let name = input.string(upTo: 16)
        let body = Data(input.bytes(upTo: 200))
        switch kind {
        case 0:
            try? form.appendPart(value: String(decoding: body, as: UTF8.self), name: name)
        case 1:
            try? form.appendPart(fileData: body, name: name, fileName: input.string(upTo: 16), mimeType: input.string(upTo: 16))
        case 2:
            let headers = HTTPHeaders([.init(name: input.string(upTo: 12), value: input.string(upTo: 24))])
            try? form.appendPart(headers: headers, body: body)
        case 3:
            let url = scratch.directory.appendingPathComponent("part\(index)")
            invariant((try? body.write(to: url)) != nil, "cannot write \(url.path)")
            try? form.appendPart(fileURL: url, name: name)
        default:
            let delta = Int64(input.byte() % 5) - 2 // mostly exact, sometimes off by one or two
            let length = Int64(body.count) + (delta == 2 || delta == -2 ? 0 : delta)
            if length < 0 { continue }
            do {
                try form.appendPart(name: name, fileName: "f", mimeType: "text/plain", length: length) { DataBodyStream(body) }
                if length != Int64(body.count) { consistent = false }
            } catch {
                continue
            }
        }
    }
    var sizes = (0..<(1 + Int(input.byte() % 8))).map { _ in 1 + Int(input.byte()) % 300 }
    if input.byte() & 1 == 1 {
        form.throttle(bytesPerPacket: 1 + Int(input.byte()), delay: .zero)
    }
    if sizes.isEmpty { sizes = [1] }

    guard let stream = try? form.makeBodyStream() else { return 0 }
    invariant(stream.contentLength == form.contentLength, "stream length \(stream.contentLength) != form length \(form.contentLength)")
    let whole = readAll(stream, sizes: [Int(stream.contentLength) + 16])
    if !consistent {
        invariant(whole == nil, "a part stream of the wrong length was read without error")
        return 0
    }
    guard let whole else {
        invariant(false, "reading a consistent form failed")
        return 0
    }
    invariant(Int64(whole.count) == stream.contentLength, "read \(whole.count) bytes, declared \(stream.contentLength)")
    invariant((try? stream.rewind()) != nil, "rewind failed")
    let pieces = readAll(stream, sizes: sizes)
    invariant(pieces == whole, "read sizes \(sizes) gave other bytes (\(pieces?.count ?? -1) of \(whole.count))")
    stream.close()
    return 0
}

/// `readAll(_:sizes:)` reads `stream` to its end, cycling through `sizes`; `nil` when a read throws.
private func readAll(_ stream: MultipartBodyStream, sizes: [Int]) -> [UInt8]? {
    var result: [UInt8] = []
    let largest = sizes.max() ?? 1
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: largest, alignment: 1)
    defer { buffer.deallocate() }
    // Each read before the end yields at least one byte: contentLength + 1 reads suffice.
    for round in 0...(Int(stream.contentLength) + 1) {
        let size = sizes[round % sizes.count]
        let count: Int
        do {
            count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]))
        } catch {
            return nil
        }
        invariant((0...size).contains(count), "read \(count) into \(size) bytes")
        if count == 0 { return result }
        result.append(contentsOf: buffer[0..<count])
        invariant(stream.bytesRead == Int64(result.count), "bytesRead \(stream.bytesRead) != \(result.count)")
    }
    invariant(false, "more than \(stream.contentLength) bytes from the stream")
    return nil
}

/// `Scratch` is a temporary directory for file parts, made once per process.
private final class Scratch: Sendable {
    let directory: URL

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-fuzz-multipart-\(getpid())")
        invariant((try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil, "cannot create \(directory.path)")
    }
}

private let scratch = Scratch()

@main
enum Main {
    static func main() {
        runFuzzer(fuzzMultipartBody)
    }
}
