@testable import FerryKit
import FuzzSupport

/// A response head, fed line by line as libcurl hands it over: the status code has at most
/// three digits, and the head written back out (status line, then `name: value` lines) reads
/// back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.copy(data, size)
    var parser = ResponseHeadParser()
    feed(&parser, bytes)
    invariant((0...999).contains(parser.statusCode), "status code \(parser.statusCode)")
    guard parser.statusCode != 0 else { return 0 }

    var printed = "\(parser.httpVersion) \(parser.statusCode) \(parser.reasonPhrase)\r\n"
    for field in parser.headers {
        // A field whose name starts like a status line cannot be written back as a field.
        guard !field.name.hasPrefix("HTTP/") else { return 0 }
        printed += "\(field.name): \(field.value)\r\n"
    }
    var again = ResponseHeadParser()
    feed(&again, Array(printed.utf8))
    invariant(again.statusCode == parser.statusCode, "status \(again.statusCode) != \(parser.statusCode)")
    invariant(again.httpVersion == parser.httpVersion, "version changed")
    invariant(again.reasonPhrase == parser.reasonPhrase, "reason changed")
    invariant(again.headers == parser.headers, "fields changed: \(again.headers.count) != \(parser.headers.count)")
    return 0
}

/// `feed(_:_:)` hands `bytes` over one line (up to and with its LF) at a time.
private func feed(_ parser: inout ResponseHeadParser, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var start = 0
        while start < buffer.count {
            let end = buffer[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? buffer.count
            parser.receive(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
            start = end
        }
    }
}

@main
enum Main {
    static func main() {
        runFuzzer(fuzzResponseHead)
    }
}
